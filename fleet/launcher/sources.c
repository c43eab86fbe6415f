/* The host objects the new root needs, opened before the root shadows any host path (step 1 of
 * rootfs.c's order): bind sources as detached read-only trees, hidden binds out of an overlay,
 * --file-ro and copy-in files as O_NOFOLLOW fds. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "mounts.h"
#include "sources.h"
#include "status.h"

/* A detached, recursively read-only, nosuid, nodev clone of a host tree. */
static int open_ro_tree(const char *host, int *is_dir, enum control control)
{
	int fd = sys_open_tree(AT_FDCWD, host, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (fd < 0)
		return fail(control, errno, "open_tree %s", host);
	struct mount_attr attr = {
		.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
	};
	if (sys_mount_setattr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr) < 0) {
		int e = errno;
		close(fd);
		return fail(control, e, "mount_setattr ro %s", host);
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return fail(control, e, "fstat %s", host);
	}
	*is_dir = S_ISDIR(st.st_mode);
	return fd;
}

/* A hidden bind: a host tree whose path must not show inside. /proc/self/mountinfo names
 * the path of a bind's source within its file system, so the source is not bound but
 * cloned out of an overlay whose layers are given relative to the source itself: "." (the
 * source directory, as the working directory) and an empty tmpfs. The only path the kernel
 * then shows is "lowerdir=.:/tmp". A file is cloned out of an overlay of its directory.
 *
 * First every source directory is opened (O_PATH), while no host path is shadowed yet; then,
 * for each, an empty tmpfs and the overlay are mounted over the staging directory, on top of
 * whatever the previous one left there (this mount namespace only; layers must be attached
 * before kernel 6.15), and the tree is cloned out. The layers stay: the root is staged on top of
 * them, and pivot_root's detach of the old root takes them away with it (rootfs.c), so no
 * source costs an unmount of its own (each one waits for an RCU grace period). */
static int open_hidden_dir(struct bind_ro *b)
{
	struct stat st;
	if (stat(b->host, &st) < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "stat %s", b->host);
	b->is_dir = S_ISDIR(st.st_mode);
	char dir[PATH_MAX];
	if (b->is_dir) {
		snprintf(dir, sizeof dir, "%s", b->host);
	} else {
		const char *slash = strrchr(b->host, '/');
		if (!slash || !slash[1] || (size_t)(slash - b->host) >= sizeof dir)
			return fail(CTL_ROOT_FILESYSTEM, EINVAL, "bad hidden bind source %s", b->host);
		snprintf(dir, sizeof dir, "%.*s", slash == b->host ? 1 : (int)(slash - b->host), b->host);
	}
	b->tree_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (b->tree_fd < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "open %s", dir);
	return 0;
}

/* Replaces b->tree_fd, the source's directory, with the tree cloned out of its overlay. */
static int clone_hidden_tree(struct bind_ro *b)
{
	char inside[PATH_MAX];
	if (b->is_dir)
		snprintf(inside, sizeof inside, STAGE);
	else
		snprintf(inside, sizeof inside, STAGE "/%s", strrchr(b->host, '/') + 1);
	int dir = b->tree_fd;
	b->tree_fd = -1;
	int r = fchdir(dir);
	int err = errno;
	close(dir);
	if (r < 0)
		return fail(CTL_ROOT_FILESYSTEM, err, "chdir into the directory of %s", b->host);
	if (mount("codecell-empty", STAGE, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555") < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "mount the empty overlay layer for %s", b->host);
	if (mount("codecell-hidden", STAGE, "overlay", MS_RDONLY | MS_NOSUID | MS_NODEV, "lowerdir=.:" STAGE) < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "overlay of %s", b->host);
	b->tree_fd = sys_open_tree(AT_FDCWD, inside, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (b->tree_fd < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "clone %s out of its overlay", b->host);
	if (chdir("/") < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "chdir /");
	return 0;
}

static int open_small_file(const char *host)
{
	int fd = open(host, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "open %s", host);
	struct stat st;
	int e = fstat(fd, &st) < 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : st.st_size > FILE_RO_MAX ? EFBIG : 0;
	if (e) {
		close(fd);
		return fail(CTL_ROOT_FILESYSTEM, e, "%s is not a regular file of at most %d bytes", host, FILE_RO_MAX);
	}
	return fd;
}

/* Every lookup by host path first; then the hidden binds' overlays, which shadow the staging
 * directory (and any host path under it). */
int sources_open(struct config *c)
{
	for (size_t i = 0; i < c->n_binds; i++) {
		struct bind_ro *b = &c->binds[i];
		if (b->hidden) {
			if (open_hidden_dir(b) < 0)
				return -1;
			continue;
		}
		b->tree_fd = b->copy ? open_small_file(b->host) : open_ro_tree(b->host, &b->is_dir, CTL_ROOT_FILESYSTEM);
		if (b->tree_fd < 0)
			return -1;
	}
	for (size_t i = 0; i < c->n_bind_ins; i++) {
		struct bind_in *b = &c->bind_ins[i];
		b->tree_fd = open_ro_tree(b->host, &b->is_dir, CTL_WORK_DIR);
		if (b->tree_fd < 0)
			return -1;
	}
	for (size_t i = 0; i < c->n_copy_ins; i++) {
		struct copy_in *ci = &c->copy_ins[i];
		ci->fd = open(ci->host, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (ci->fd < 0)
			return fail(CTL_WORK_DIR, errno, "open copy-in source %s", ci->host);
		struct stat st;
		if (fstat(ci->fd, &st) < 0)
			return fail(CTL_WORK_DIR, errno, "fstat copy-in source %s", ci->host);
		if (!S_ISREG(st.st_mode))
			return fail(CTL_WORK_DIR, EINVAL, "copy-in source %s is not a regular file", ci->host);
	}
	for (size_t i = 0; i < c->n_binds; i++)
		if (c->binds[i].hidden && clone_hidden_tree(&c->binds[i]) < 0)
			return -1;
	return 0;
}
