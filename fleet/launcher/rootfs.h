/* The root's tmpfs, /box and /tmp, pivot_root and sealing (rootfs.c, init; the root's build order is there). */
#ifndef CODECELL_ROOTFS_H
#define CODECELL_ROOTFS_H

#include "config.h"

int rootfs_stage(struct config *c);
int rootfs_box(struct config *c);
int rootfs_tmp(struct config *c);
int rootfs_pivot(struct config *c);
int rootfs_seal(struct config *c);

#endif
