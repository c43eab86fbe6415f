/* Assembling the sandbox root in init's private mount namespace.
 *
 * Order (each a step of init.c's pipeline):
 *   1. mounts_open_sources: every host object the root needs is opened first
 *      (bind sources as detached, already read-only mount clones via
 *      open_tree(OPEN_TREE_CLONE|AT_RECURSIVE) + mount_setattr(AT_RECURSIVE),
 *      copy-in files as O_NOFOLLOW fds). After this nothing is looked up by
 *      host path any more, so the next step may shadow any host directory.
 *   2. mounts_root: a small tmpfs is mounted over /tmp (only in this private
 *      mount namespace: nothing is created on the host) and becomes the new root.
 *   3. /box, /tmp, /dev are mounted before any user-controlled entry exists in
 *      the new root, so their host-side paths cannot meet a symlink.
 *   4. copy-ins and bind-ins go through an fd of /box (openat, O_EXCL|O_NOFOLLOW).
 *      Placing a copy-in (its directories, the file, its bytes) fails as box_files, not
 *      work_dir: the supervisor tells the files' own faults (no room, a name clash) from
 *      the platform's by errno.
 *   5. binds and symlinks: paths are walked component by component with
 *      O_NOFOLLOW from the root fd; the detached trees are attached with
 *      move_mount(). Binds are recursive and every submount is read-only,
 *      nosuid, nodev (mount_setattr AT_RECURSIVE on the detached tree).
 *   6. pivot_root(".", "."), lazy unmount of the old root.
 *   7. a fresh proc at /proc, its host-wide files masked (procfs.c).
 *   8. the root tmpfs is made read-only (/dev already is, since step 3).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "launcher.h"

/* Where the new root is assembled, inside the private mount namespace only. */
#define STAGE "/tmp"
#define ROOT_TMPFS_OPTS "size=1m,nr_inodes=4096,mode=0755"
#define DEV_TMPFS_OPTS "size=64k,nr_inodes=64,mode=0755"

static int sys_open_tree(int dfd, const char *path, unsigned flags)
{
	return (int)syscall(SYS_open_tree, dfd, path, flags);
}

static int sys_move_mount(int from_dfd, const char *from, int to_dfd, const char *to, unsigned flags)
{
	return (int)syscall(SYS_move_mount, from_dfd, from, to_dfd, to, flags);
}

static int sys_mount_setattr(int dfd, const char *path, unsigned flags, struct mount_attr *attr)
{
	return (int)syscall(SYS_mount_setattr, dfd, path, flags, attr, sizeof *attr);
}

/* A plain file name inside /box: not empty, not "." or "..", no '/', and
 * nothing that could break a status line (spaces, control characters) or the
 * ':'-separated command line. */
int valid_name(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > NAME_MAX || !strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p == '/' || *p == ':' || *p <= ' ' || *p == 0x7f)
			return 0; /* bytes >= 0x80 (UTF-8 names) are fine */
	return 1;
}

/* A relative path inside /box ("lib/util.h"): at most MAX_BOX_DEPTH
 * components, each a valid_name, separated by single slashes. */
int valid_box_path(const char *path)
{
	if (strlen(path) >= PATH_MAX)
		return 0;
	char component[NAME_MAX + 1];
	int depth = 0;
	for (const char *p = path;; p++) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n == 0 || n > NAME_MAX || ++depth > MAX_BOX_DEPTH)
			return 0;
		memcpy(component, p, n);
		component[n] = '\0';
		if (!valid_name(component))
			return 0;
		if (!e)
			return 1;
		p = e;
	}
}

/* An absolute sandbox path other than "/", without "." or ".." components. */
int valid_sandbox_path(const char *path)
{
	if (path[0] != '/' || strlen(path) >= PATH_MAX)
		return 0;
	int components = 0;
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.') || n > NAME_MAX)
			return 0;
		components++;
		p += n;
	}
	return components > 0;
}

/* Copies LEN bytes (or up to EOF) from IN to OUT. */
int copy_fd(int in, int out, uint64_t len, uint64_t *copied)
{
	uint64_t done = 0;
	int use_rw = 0;
	char buf[65536];
	while (done < len) {
		size_t want = len - done > (1u << 30) ? (1u << 30) : (size_t)(len - done);
		ssize_t n;
		if (!use_rw) {
			n = sendfile(out, in, NULL, want);
			if (n < 0 && (errno == EINVAL || errno == ENOSYS)) {
				use_rw = 1;
				continue;
			}
		} else {
			n = read(in, buf, want < sizeof buf ? want : sizeof buf);
			if (n > 0) {
				ssize_t w = 0;
				while (w < n) {
					ssize_t k = write(out, buf + w, (size_t)(n - w));
					if (k < 0 && errno == EINTR)
						continue;
					if (k <= 0) {
						*copied = done;
						return -1;
					}
					w += k;
				}
			}
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			*copied = done;
			return -1;
		}
		if (n == 0)
			break;
		done += (uint64_t)n;
	}
	*copied = done;
	return 0;
}

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
 * Both the empty tmpfs and the overlay are mounted over the staging directory only for the
 * moment it takes (this mount namespace only; layers must be attached before kernel 6.15),
 * and detached before the next source is looked up. */
static int open_hidden_tree(const char *host, int *is_dir)
{
	struct stat st;
	if (stat(host, &st) < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "stat %s", host);
	*is_dir = S_ISDIR(st.st_mode);
	char dir[PATH_MAX], inside[PATH_MAX];
	if (*is_dir) {
		snprintf(dir, sizeof dir, "%s", host);
		snprintf(inside, sizeof inside, STAGE);
	} else {
		const char *slash = strrchr(host, '/');
		if (!slash || !slash[1] || (size_t)(slash - host) >= sizeof dir)
			return fail(CTL_ROOT_FILESYSTEM, EINVAL, "bad hidden bind source %s", host);
		snprintf(dir, sizeof dir, "%.*s", slash == host ? 1 : (int)(slash - host), host);
		snprintf(inside, sizeof inside, STAGE "/%s", slash + 1);
	}
	if (chdir(dir) < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "chdir %s", dir);
	int tree = -1, layers = 0;
	if (mount("codecell-empty", STAGE, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555") < 0)
		fail(CTL_ROOT_FILESYSTEM, errno, "mount the empty overlay layer for %s", host);
	else if (++layers, mount("codecell-hidden", STAGE, "overlay", MS_RDONLY | MS_NOSUID | MS_NODEV, "lowerdir=.:" STAGE) < 0)
		fail(CTL_ROOT_FILESYSTEM, errno, "overlay of %s", host);
	else if (++layers, (tree = sys_open_tree(AT_FDCWD, inside, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC)) < 0)
		fail(CTL_ROOT_FILESYSTEM, errno, "clone %s out of its overlay", host);
	for (; layers > 0; layers--) {
		if (umount2(STAGE, MNT_DETACH) < 0 && tree >= 0) {
			close(tree);
			tree = fail(CTL_ROOT_FILESYSTEM, errno, "detach the overlay layers of %s", host);
		}
	}
	if (chdir("/") < 0 && tree >= 0) {
		close(tree);
		tree = fail(CTL_ROOT_FILESYSTEM, errno, "chdir /");
	}
	return tree;
}

/* The root tmpfs is 1 MiB: the files copied into it are small (passwd, ld.so.cache). */
#define FILE_RO_MAX (256 * 1024)

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

int mounts_open_sources(struct config *c)
{
	for (size_t i = 0; i < c->n_binds; i++) {
		struct bind_ro *b = &c->binds[i];
		b->tree_fd = b->copy     ? open_small_file(b->host)
			     : b->hidden ? open_hidden_tree(b->host, &b->is_dir)
					 : open_ro_tree(b->host, &b->is_dir, CTL_ROOT_FILESYSTEM);
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
	return 0;
}

int mounts_root(struct config *c)
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

int mounts_box(struct config *c)
{
	char opts[128];
	snprintf(opts, sizeof opts, "size=%llu,mode=0755,uid=%u,gid=%u",
		 (unsigned long long)c->box_size, (unsigned)c->uid, (unsigned)c->gid);
	if (mount("codecell-box", STAGE "/box", "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0)
		return fail(CTL_WORK_DIR, errno, "mount /box tmpfs");
	c->box_fd = openat(c->root_fd, "box", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->box_fd < 0)
		return fail(CTL_WORK_DIR, errno, "open /box");
	return 0;
}

int mounts_tmp(struct config *c)
{
	char opts[64];
	snprintf(opts, sizeof opts, "size=%llu,mode=1777", (unsigned long long)c->tmp_size);
	if (mount("codecell-tmp", STAGE "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0)
		return fail(CTL_TMP, errno, "mount /tmp tmpfs");
	c->tmp_fd = openat(c->root_fd, "tmp", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->tmp_fd < 0)
		return fail(CTL_TMP, errno, "open /tmp");
	return 0;
}

/* A device node: mknod, or a bind of the host's node where mknod is not
 * permitted (no CAP_MKNOD in some container setups). */
static int make_dev(int dev_fd, const char *name, unsigned major_nr, unsigned minor_nr)
{
	if (mknodat(dev_fd, name, S_IFCHR | 0666, makedev(major_nr, minor_nr)) == 0)
		return 0;
	if (errno != EPERM)
		return fail(CTL_DEV, errno, "mknod /dev/%s", name);
	char host[32];
	snprintf(host, sizeof host, "/dev/%s", name);
	struct stat st;
	if (stat(host, &st) < 0)
		return fail(CTL_DEV, errno, "stat %s", host);
	if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != major_nr || minor(st.st_rdev) != minor_nr)
		return fail(CTL_DEV, EINVAL, "host %s is not the expected device", host);
	int tree = sys_open_tree(AT_FDCWD, host, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return fail(CTL_DEV, errno, "open_tree %s", host);
	int r = 0;
	if (mknodat(dev_fd, name, S_IFREG | 0644, 0) < 0)
		r = fail(CTL_DEV, errno, "create /dev/%s", name);
	else if (sys_move_mount(tree, "", dev_fd, name, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		r = fail(CTL_DEV, errno, "bind %s", host);
	close(tree);
	return r;
}

int mounts_dev(struct config *c)
{
	static const struct {
		const char *name;
		unsigned major_nr, minor_nr;
	} nodes[] = {{"null", 1, 3}, {"zero", 1, 5}, {"random", 1, 8}, {"urandom", 1, 9}};
	static const struct {
		const char *target, *name;
	} links[] = {{"/proc/self/fd", "fd"},
		     {"/proc/self/fd/0", "stdin"},
		     {"/proc/self/fd/1", "stdout"},
		     {"/proc/self/fd/2", "stderr"}};

	if (mount("codecell-dev", STAGE "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, DEV_TMPFS_OPTS) < 0)
		return fail(CTL_DEV, errno, "mount /dev tmpfs");
	int dev_fd = openat(c->root_fd, "dev", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dev_fd < 0)
		return fail(CTL_DEV, errno, "open /dev");
	int r = 0;
	for (size_t i = 0; r == 0 && i < sizeof nodes / sizeof nodes[0]; i++)
		r = make_dev(dev_fd, nodes[i].name, nodes[i].major_nr, nodes[i].minor_nr);
	for (size_t i = 0; r == 0 && i < sizeof links / sizeof links[0]; i++)
		if (symlinkat(links[i].target, dev_fd, links[i].name) < 0)
			r = fail(CTL_DEV, errno, "symlink /dev/%s", links[i].name);
	if (r == 0 && mkdirat(dev_fd, "shm", 01777) < 0)
		r = fail(CTL_DEV, errno, "mkdir /dev/shm");
	close(dev_fd);
	if (r == 0 && mount(NULL, STAGE "/dev", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NOEXEC,
			    NULL) < 0)
		r = fail(CTL_DEV, errno, "remount /dev read-only");
	/* POSIX shared memory (shm_open, Python's multiprocessing): a tmpfs of the
	 * run's own, as large as /tmp. Its pages are charged to the run's memory
	 * cgroup like any other memory the program touches. */
	char opts[64];
	snprintf(opts, sizeof opts, "size=%llu,mode=1777", (unsigned long long)c->tmp_size);
	if (r == 0 && mount("codecell-shm", STAGE "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts) < 0)
		r = fail(CTL_DEV, errno, "mount /dev/shm tmpfs");
	return r;
}

/* Opens the directory that holds NAME's last component, creating the missing
 * directories on the way (owned by the program, 0755). Every step is an openat
 * with O_NOFOLLOW|O_DIRECTORY from the previous one, so no symlink is followed;
 * *LEAF points at the last component. Returns an O_PATH fd to close, or -1. */
static int open_box_parent(struct config *c, const char *name, const char **leaf)
{
	int dir = fcntl(c->box_fd, F_DUPFD_CLOEXEC, 0);
	if (dir < 0)
		return fail(CTL_WORK_DIR, errno, "dup /box");
	char component[NAME_MAX + 1];
	const char *p = name;
	for (const char *e; (e = strchr(p, '/')) != NULL; p = e + 1) {
		size_t n = (size_t)(e - p);
		memcpy(component, p, n);
		component[n] = '\0';
		int made = mkdirat(dir, component, 0755) == 0;
		if (!made && errno != EEXIST) {
			fail(CTL_BOX_FILES, errno, "mkdir in /box for %s", name);
			close(dir);
			return -1;
		}
		if (made && (fchownat(dir, component, c->uid, c->gid, AT_SYMLINK_NOFOLLOW) < 0 ||
			     fchmodat(dir, component, 0755, 0) < 0)) {
			fail(CTL_WORK_DIR, errno, "own the directories of /box/%s", name);
			close(dir);
			return -1;
		}
		int next = openat(dir, component, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int err = errno;
		close(dir);
		if (next < 0)
			return fail(CTL_BOX_FILES, err, "open the directories of /box/%s", name);
		dir = next;
	}
	*leaf = p;
	return dir;
}

static int copy_in_one(struct config *c, struct copy_in *ci)
{
	const char *leaf;
	int dir = open_box_parent(c, ci->name, &leaf);
	if (dir < 0)
		return -1;
	int out = openat(dir, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, ci->mode);
	int err = errno;
	close(dir);
	if (out < 0)
		return fail(CTL_BOX_FILES, err, "create /box/%s", ci->name);
	int r = 0;
	uint64_t copied;
	if (copy_fd(ci->fd, out, UINT64_MAX, &copied) < 0)
		r = fail(CTL_BOX_FILES, errno, "copy into /box/%s", ci->name);
	else if (fchown(out, c->uid, c->gid) < 0)
		r = fail(CTL_WORK_DIR, errno, "fchown /box/%s", ci->name);
	else if (fchmod(out, ci->mode) < 0) /* umask-proof; fchown may clear bits */
		r = fail(CTL_WORK_DIR, errno, "fchmod /box/%s", ci->name);
	close(out);
	close(ci->fd);
	ci->fd = -1;
	return r;
}

/* Creates the mount point LEAF in PARENT_FD (a directory or an empty file,
 * matching the source) and attaches the detached TREE there. */
static int attach_tree(int tree, int is_dir, int parent_fd, const char *leaf, const char *shown,
		       enum control control)
{
	int r = is_dir ? mkdirat(parent_fd, leaf, 0755) : mknodat(parent_fd, leaf, S_IFREG | 0644, 0);
	if (r < 0 && errno != EEXIST)
		return fail(control, errno, "create mount point %s", shown);
	if (sys_move_mount(tree, "", parent_fd, leaf, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return fail(control, errno, "attach bind at %s", shown);
	close(tree);
	return 0;
}

int mounts_fill_box(struct config *c)
{
	for (size_t i = 0; i < c->n_copy_ins; i++)
		if (copy_in_one(c, &c->copy_ins[i]) < 0)
			return -1;
	for (size_t i = 0; i < c->n_bind_ins; i++) {
		struct bind_in *b = &c->bind_ins[i];
		if (faccessat(c->box_fd, b->name, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			return fail(CTL_WORK_DIR, EEXIST, "/box/%s", b->name);
		if (attach_tree(b->tree_fd, b->is_dir, c->box_fd, b->name, b->name, CTL_WORK_DIR) < 0)
			return -1;
		b->tree_fd = -1;
	}
	return 0;
}

/* Walks PATH from the new root, creating missing directories, never following
 * a symlink. Returns an O_PATH fd of the parent directory (root_fd itself for
 * a top-level entry) and copies the last component into LEAF. */
static int walk_parent(int root_fd, const char *path, char leaf[NAME_MAX + 1], enum control control)
{
	char comp[NAME_MAX + 1];
	int cur = root_fd;
	const char *p = path;
	leaf[0] = '\0';
	for (;;) {
		while (*p == '/')
			p++;
		const char *e = p;
		while (*e && *e != '/')
			e++;
		size_t n = (size_t)(e - p);
		const char *rest = e;
		while (*rest == '/')
			rest++;
		if (n == 0 || n > NAME_MAX)
			break;
		memcpy(comp, p, n);
		comp[n] = '\0';
		if (!strcmp(comp, ".") || !strcmp(comp, ".."))
			break;
		if (!*rest) { /* last component */
			memcpy(leaf, comp, n + 1);
			return cur;
		}
		if (mkdirat(cur, comp, 0755) < 0 && errno != EEXIST) {
			int e2 = errno;
			if (cur != root_fd)
				close(cur);
			return fail(control, e2, "mkdir %s in %s", comp, path);
		}
		int next = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e2 = errno;
		if (cur != root_fd)
			close(cur);
		if (next < 0)
			return fail(control, e2, "open %s in %s", comp, path);
		cur = next;
		p = rest;
	}
	if (cur != root_fd)
		close(cur);
	return fail(control, EINVAL, "bad sandbox path %s", path);
}

/* A --file-ro entry: the host file's bytes, in a new read-only file of the root. */
static int copy_file_into(int in, int parent_fd, const char *leaf, const char *shown)
{
	int out = openat(parent_fd, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
	int r = 0;
	uint64_t copied;
	if (out < 0)
		r = fail(CTL_ROOT_FILESYSTEM, errno, "create %s", shown);
	else if (copy_fd(in, out, FILE_RO_MAX, &copied) < 0)
		r = fail(CTL_ROOT_FILESYSTEM, errno, "copy into %s", shown);
	if (out >= 0)
		close(out);
	close(in);
	return r;
}

int mounts_binds(struct config *c)
{
	char leaf[NAME_MAX + 1];
	for (size_t i = 0; i < c->n_binds; i++) {
		struct bind_ro *b = &c->binds[i];
		int parent = walk_parent(c->root_fd, b->path, leaf, CTL_ROOT_FILESYSTEM);
		if (parent < 0)
			return -1;
		int r = b->copy ? copy_file_into(b->tree_fd, parent, leaf, b->path)
				: attach_tree(b->tree_fd, b->is_dir, parent, leaf, b->path, CTL_ROOT_FILESYSTEM);
		if (parent != c->root_fd)
			close(parent);
		if (r < 0)
			return -1;
		b->tree_fd = -1;
	}
	return 0;
}

int mounts_symlinks(struct config *c)
{
	char leaf[NAME_MAX + 1];
	for (size_t i = 0; i < c->n_symlinks; i++) {
		struct symlink_ent *s = &c->symlinks[i];
		int parent = walk_parent(c->root_fd, s->path, leaf, CTL_ROOT_FILESYSTEM);
		if (parent < 0)
			return -1;
		int r = symlinkat(s->target, parent, leaf);
		int e = errno;
		if (parent != c->root_fd)
			close(parent);
		if (r < 0)
			return fail(CTL_ROOT_FILESYSTEM, e, "symlink %s", s->path);
	}
	return 0;
}

int mounts_pivot(struct config *c)
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

int mounts_seal(struct config *c)
{
	(void)c;
	if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) < 0)
		return fail(CTL_ROOT_FILESYSTEM, errno, "remount / read-only");
	return 0;
}
