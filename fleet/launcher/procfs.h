/* A fresh /proc and its masks (procfs.c, init). */
#ifndef CODECELL_PROCFS_H
#define CODECELL_PROCFS_H

#include "config.h"

int procfs_masks_mount(struct config *c);
int procfs_mount(struct config *c);
int procfs_mask(struct config *c);
void procfs_prepare(void); /* the zygote, once: what the masks take from the kernel */

#endif
