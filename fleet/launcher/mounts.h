/* Shared by the files that build the new root (rootfs.c, devfs.c, sources.c, mounts.c), and
 * what mounts.c puts into it. */
#ifndef CODECELL_MOUNTS_H
#define CODECELL_MOUNTS_H

#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "config.h"

/* Where the new root is assembled, inside the private mount namespace only. */
#define STAGE "/tmp"

/* The root tmpfs is 1 MiB: the files copied into it are small (passwd, ld.so.cache). */
#define FILE_RO_MAX (256 * 1024)

static inline int sys_open_tree(int dfd, const char *path, unsigned flags)
{
	return (int)syscall(SYS_open_tree, dfd, path, flags);
}

static inline int sys_move_mount(int from_dfd, const char *from, int to_dfd, const char *to, unsigned flags)
{
	return (int)syscall(SYS_move_mount, from_dfd, from, to_dfd, to, flags);
}

static inline int sys_mount_setattr(int dfd, const char *path, unsigned flags, struct mount_attr *attr)
{
	return (int)syscall(SYS_mount_setattr, dfd, path, flags, attr, sizeof *attr);
}

/* mounts.c (init): copy-ins and bind-ins in /box, binds, --file-ro copies, symlinks. */
int mounts_fill_box(struct config *c);
int mounts_binds(struct config *c);
int mounts_symlinks(struct config *c);

#endif
