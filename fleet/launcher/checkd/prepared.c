/* The check server: the checker's prepared files (what /box held when the server started),
 * copied in again after each check, so a check that rewrote one, or added to a prepared
 * directory, leaves nothing of it for the next. Their contents are kept in memfds of the
 * server's own (not dumpable: a checker cannot reach them); entries of another file system (a
 * read-only bind) cannot be changed and are left as they are. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prepared.h"
#include "tree.h"

#define MAX_PREPARED 4096
#define MAX_DEPTH 64

struct prepared {
	char *path; /* relative to /box */
	mode_t mode;
	int data;     /* a file's copy (memfd); -1 otherwise */
	char *target; /* a symlink's */
};

static struct prepared list[MAX_PREPARED];
static size_t n_list;
static dev_t box_dev;

/* Copies all of `in` from offset 0 into `out` at its offset. */
static int copy_all(int out, int in)
{
	off_t off = 0;
	ssize_t r;
	while ((r = sendfile(out, in, &off, 1 << 20)) > 0 || (r < 0 && errno == EINTR))
		;
	return r < 0 ? -1 : 0;
}

static int keep_file(int box, const char *path, struct prepared *p)
{
	int in = openat(box, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	p->data = memfd_create("prepared", MFD_CLOEXEC);
	int rc = in < 0 || p->data < 0 || copy_all(p->data, in) < 0 ? -1 : 0;
	if (in >= 0)
		close(in);
	return rc;
}

static int snapshot_entry(int box, const char *path, int depth);

static int snapshot_children(int box, const char *path, int depth)
{
	int fd = openat(box, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);
	if (!dir)
		return -1;
	int rc = 0;
	struct dirent *e;
	char child[PATH_MAX];
	while (rc == 0 && (e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (snprintf(child, sizeof child, "%s/%s", path, e->d_name) >= (int)sizeof child)
			rc = -1;
		else
			rc = snapshot_entry(box, child, depth + 1);
	}
	closedir(dir);
	return rc;
}

/* One entry and, for a directory, all it holds, in the order they are made again. */
static int snapshot_entry(int box, const char *path, int depth)
{
	struct stat st;
	if (depth > MAX_DEPTH || n_list == MAX_PREPARED || fstatat(box, path, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -1;
	if (st.st_dev != box_dev)
		return depth == 0 ? 0 : -1; /* a bind at the top is left alone; one below cannot be made again */
	struct prepared *p = &list[n_list++];
	*p = (struct prepared){.path = strdup(path), .mode = st.st_mode, .data = -1};
	if (!p->path)
		return -1;
	if (S_ISREG(st.st_mode))
		return keep_file(box, path, p);
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t len = readlinkat(box, path, target, sizeof target - 1);
		if (len < 0)
			return -1;
		target[len] = '\0';
		return (p->target = strdup(target)) ? 0 : -1;
	}
	return S_ISDIR(st.st_mode) ? snapshot_children(box, path, depth) : -1;
}

int checkd_snapshot_prepared(const char *const *names, size_t n)
{
	int box = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	if (box < 0 || fstat(box, &st) < 0)
		return -1;
	box_dev = st.st_dev;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = snapshot_entry(box, names[i], 0);
	close(box);
	return rc;
}

static int make_again(int box, const struct prepared *p)
{
	if (S_ISDIR(p->mode))
		return mkdirat(box, p->path, 0700);
	if (p->target)
		return symlinkat(p->target, box, p->path);
	int out = openat(box, p->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0)
		return -1;
	int rc = copy_all(out, p->data) < 0 || fchmod(out, p->mode & 07777) < 0 ? -1 : 0;
	return close(out) < 0 ? -1 : rc;
}

/* After a check (its processes gone): each prepared entry removed, whatever the check made of it,
 * and made again; directories get their modes last, once what they hold is in place. */
int checkd_restore_prepared(void)
{
	int box = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (box < 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n_list; i++)
		if (!strchr(list[i].path, '/'))
			rc = checkd_remove_tree(box, list[i].path);
	for (size_t i = 0; rc == 0 && i < n_list; i++)
		rc = make_again(box, &list[i]);
	for (size_t i = n_list; rc == 0 && i-- > 0;)
		if (S_ISDIR(list[i].mode))
			rc = fchmodat(box, list[i].path, list[i].mode & 07777, 0);
	close(box);
	return rc;
}
