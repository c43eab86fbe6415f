/* The new root, built in init's private mount namespace (each function a step of init.c's
 * root pipeline, which runs them in this order and stops at the first failure):
 *   1. sources.c: every host object the root needs is opened first (bind sources as detached,
 *      already read-only mount clones via open_tree(OPEN_TREE_CLONE|AT_RECURSIVE) +
 *      mount_setattr(AT_RECURSIVE), copy-in files as O_NOFOLLOW fds). After this nothing is
 *      looked up by host path any more, so the next steps may shadow any host directory: the
 *      hidden binds' overlays are mounted over /tmp last (sources.c).
 *   2. procfs.c: the /proc masks' tmpfs is mounted over /tmp too, under where the root goes.
 *   3. rootfs_stage: a small tmpfs is mounted over /tmp (only in this private mount namespace:
 *      nothing is created on the host) and becomes the new root.
 *   4. /box, /tmp (here) and /dev (devfs.c) are mounted before any user-controlled entry exists
 *      in the new root, so their host-side paths cannot meet a symlink.
 *   5. mounts.c: copy-ins and bind-ins go through an fd of /box (openat, O_EXCL|O_NOFOLLOW).
 *      Placing a copy-in (its directories, the file, its bytes) fails as box_files, not
 *      work_dir: the supervisor tells the files' own faults (no room, a name clash) from
 *      the platform's by errno.
 *   6. mounts.c: binds and symlinks: paths are walked component by component with
 *      O_NOFOLLOW from the root fd; the detached trees are attached with
 *      move_mount(). Binds are recursive and every submount is read-only,
 *      nosuid, nodev (mount_setattr AT_RECURSIVE on the detached tree).
 *   7. procfs.c: a fresh proc at the new root's /proc, its host-wide files masked.
 *   8. rootfs_pivot: pivot_root(".", "."), lazy unmount of the old root. That one unmount also
 *      takes away what steps 1 and 2 left over /tmp: an unmount waits for an RCU grace period,
 *      so the run pays for one, not one per overlay layer and one for the masks.
 *   9. rootfs_seal: the root tmpfs is made read-only (/dev already is, since step 4).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "config.h"
#include "mounts.h"
#include "rootfs.h"
#include "status.h"

#define ROOT_TMPFS_OPTS "size=1m,nr_inodes=4096,mode=0755"

int rootfs_stage(struct config *c)
{
	if (mount("codecell-root", STAGE, "tmpfs", MS_NOSUID | MS_NODEV, ROOT_TMPFS_OPTS) < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "mount root tmpfs");
	c->root_fd = open(STAGE, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->root_fd < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "open new root");
	static const char *const dirs[] = {"box", "tmp", "dev", "proc"};
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		if (mkdirat(c->root_fd, dirs[i], 0755) < 0)
			return fail(CTL_ROOT_FILESYSTEM, errno, "mkdir /%s", dirs[i]);
	return 0;
}

/* A tmpfs mounted at /NAME in the stage, and an O_PATH fd of it in *FD. */
static int mount_tmpfs(struct config *c, const char *name, const char *opts, int control, int *fd)
{
	char target[64];
	char source[64];
	snprintf(target, sizeof target, STAGE "/%s", name);
	snprintf(source, sizeof source, "codecell-%s", name);
	if (mount(source, target, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0)
		return fail(control, errno, "mount /%s tmpfs", name);
	*fd = openat(c->root_fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0)
		return fail(control, errno, "open /%s", name);
	return 0;
}

int rootfs_box(struct config *c)
{
	char opts[128];
	snprintf(opts, sizeof opts, "size=%llu,mode=0755,uid=%u,gid=%u",
		 (unsigned long long)c->box_size, (unsigned)c->uid, (unsigned)c->gid);
	return mount_tmpfs(c, "box", opts, CTL_WORK_DIR, &c->box_fd);
}

int rootfs_tmp(struct config *c)
{
	char opts[64];
	snprintf(opts, sizeof opts, "size=%llu,mode=1777", (unsigned long long)c->tmp_size);
	return mount_tmpfs(c, "tmp", opts, CTL_TMP, &c->tmp_fd);
}

int rootfs_pivot(struct config *c)
{
	if (fchdir(c->root_fd) < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "fchdir new root");
	/* pivot_root(".", "."): the old root ends up stacked on the new one and is
	 * detached right away; no put_old directory is needed. */
	if (syscall(SYS_pivot_root, ".", ".") < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "pivot_root");
	if (umount2(".", MNT_DETACH) < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "detach old root");
	if (chdir("/") < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "chdir /");
	close(c->root_fd);
	c->root_fd = -1;
	return 0;
}

int rootfs_seal(struct config *c)
{
	(void)c;
	if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "remount / read-only");
	return 0;
}
