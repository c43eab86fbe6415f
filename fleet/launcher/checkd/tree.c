/* The check server: files and directory trees removed, never following a symlink (what a check
 * left: cleanup.c; a prepared entry a check replaced: prepared.c). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tree.h"

#define MAX_DEPTH 64

static int remove_tree(int at, const char *name, int depth);

int checkd_remove_tree(int at, const char *name)
{
	return remove_tree(at, name, 0);
}

static int remove_entries(int fd, int depth, int (*keep)(const char *name))
{
	DIR *dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -1;
	}
	/* Passes until one removes nothing: each is linear, whatever removing does to the listing. */
	int rc = 0, removed = 1;
	while (rc == 0 && removed) {
		removed = 0;
		rewinddir(dir);
		struct dirent *e;
		while (rc == 0 && (e = readdir(dir))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || (keep && keep(e->d_name)))
				continue;
			rc = remove_tree(dirfd(dir), e->d_name, depth + 1);
			removed = 1;
		}
	}
	closedir(dir);
	return rc;
}

/* A file, or a directory and all it holds (made writable first; symlinks are never followed). */
static int remove_tree(int at, const char *name, int depth)
{
	if (unlinkat(at, name, 0) == 0 || errno == ENOENT)
		return 0;
	if ((errno != EISDIR && errno != EPERM) || depth > MAX_DEPTH)
		return -1;
	struct stat st;
	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode) || fchmodat(at, name, 0700, 0) < 0)
		return -1;
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || remove_entries(fd, depth, NULL) < 0)
		return -1;
	return unlinkat(at, name, AT_REMOVEDIR);
}

int checkd_remove_entries(int fd, int (*keep)(const char *name))
{
	return remove_entries(fd, 0, keep);
}

/* Everything in a directory, removed (none there: nothing to do). */
int checkd_empty_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	return remove_entries(fd, 0, NULL);
}
