/* What goes into the new root once its tmpfs mounts exist (steps 4 and 5 of rootfs.c's order):
 * copy-ins and bind-ins in /box, then the binds, --file-ro copies and symlinks, each path walked
 * from the root fd component by component without following a symlink. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "copyfd.h"
#include "mounts.h"
#include "status.h"

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

/* The parent directory of the last --file-ro copy, kept while the entries that follow are in the
 * same directory (the /etc files come in a row): one there cannot cover it, and the first entry
 * elsewhere (a bind there may) drops it. */
struct kept_parent {
	char dir[PATH_MAX];
	int fd; /* -1: none */
};

static void drop_kept(struct kept_parent *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

static int kept_leaf(const char *name)
{
	size_t n = strlen(name);
	return n > 0 && n <= NAME_MAX && strcmp(name, ".") && strcmp(name, "..");
}

/* PATH's parent, from K when it is the kept one (not to be closed: K owns it), else walked. */
static int parent_of(struct config *c, struct kept_parent *k, const struct bind_ro *b, char leaf[NAME_MAX + 1])
{
	const char *slash = strrchr(b->path, '/');
	size_t dir_len = slash ? (size_t)(slash - b->path) : 0;
	if (k->fd >= 0 && dir_len > 0 && dir_len == strlen(k->dir) && !memcmp(k->dir, b->path, dir_len) && kept_leaf(slash + 1)) {
		strcpy(leaf, slash + 1);
		return k->fd;
	}
	drop_kept(k);
	int parent = walk_parent(c->root_fd, b->path, leaf, CTL_ROOT_FILESYSTEM);
	if (parent >= 0 && parent != c->root_fd && b->copy && dir_len < sizeof k->dir) {
		memcpy(k->dir, b->path, dir_len);
		k->dir[dir_len] = '\0';
		k->fd = parent;
	}
	return parent;
}

int mounts_binds(struct config *c)
{
	char leaf[NAME_MAX + 1];
	struct kept_parent kept = {.fd = -1};
	for (size_t i = 0; i < c->n_binds; i++) {
		struct bind_ro *b = &c->binds[i];
		int parent = parent_of(c, &kept, b, leaf);
		if (parent < 0)
			return -1;
		int r = b->copy ? copy_file_into(b->tree_fd, parent, leaf, b->path)
				: attach_tree(b->tree_fd, b->is_dir, parent, leaf, b->path, CTL_ROOT_FILESYSTEM);
		if (parent != c->root_fd && parent != kept.fd)
			close(parent);
		if (r < 0) {
			drop_kept(&kept);
			return -1;
		}
		b->tree_fd = -1;
	}
	drop_kept(&kept);
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
