/* /dev and /dev/shm (devfs.c, init). */
#ifndef CODECELL_DEVFS_H
#define CODECELL_DEVFS_H

#include "config.h"

int devfs_mount(struct config *c);

#endif
