/* Files the zygote keeps open for the runs it forks: the node's own cgroup.procs files, where each
 * run's init and output drainer go back (--init-return-procs, --drainer-return-procs). They are the
 * same for every run of the node, so the zygote opens each once, when a request first names it,
 * and every spare and child inherits it (close-on-exec). A run's launcher takes a copy of those it
 * needs instead of opening them (a cgroup file's open costs several µs) and closes the originals
 * before it clones init. A path the zygote could not open is opened by the launcher, which then
 * reports the failure itself. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "kept.h"
#include "request.h"

static struct {
	char *path;
	int fd;
} g_kept[KEPT_MAX];
static size_t g_n_kept;

static int kept_fd(const char *path)
{
	for (size_t i = 0; i < g_n_kept; i++)
		if (g_kept[i].fd >= 0 && !strcmp(g_kept[i].path, path))
			return g_kept[i].fd;
	return -1;
}

static void keep(const char *path)
{
	if (g_n_kept == KEPT_MAX || kept_fd(path) >= 0)
		return;
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int high = fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 10); /* above 0-4, which a run wires */
	if (fd >= 0)
		close(fd);
	char *copy = high < 0 ? NULL : strdup(path);
	if (!copy) {
		if (high >= 0)
			close(high);
		return;
	}
	g_kept[g_n_kept++] = (typeof(g_kept[0])){copy, high};
}

void kept_from_request(const char *request, size_t len)
{
	static const char *const names[] = {"--init-return-procs", "--drainer-return-procs"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		for (const char *value = NULL; (value = request_value(request, len, names[i], value));)
			keep(value);
}

int kept_open(const char *path)
{
	int fd = kept_fd(path);
	return fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : open(path, O_WRONLY | O_CLOEXEC);
}

size_t kept_list(int *fds, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < g_n_kept && n < max; i++)
		if (g_kept[i].fd >= 0)
			fds[n++] = g_kept[i].fd;
	return n;
}

void kept_close_all(void)
{
	for (size_t i = 0; i < g_n_kept; i++) {
		if (g_kept[i].fd >= 0)
			close(g_kept[i].fd);
		g_kept[i].fd = -1;
	}
}
