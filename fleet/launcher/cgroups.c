/* The run's cgroups, through the cgroup.procs fds the launcher opened (O_WRONLY|O_CLOEXEC) before
 * clone, while the host paths were still visible. "0" means the writing process itself (cgroup v1
 * and v2).
 *
 * The program child joins them first thing. init joins them once the root is built, just before
 * the program may start: while the program lives init works for it (it answers the file-size
 * watch's notifications, fsize.c), so that CPU is the run's, counted and shared like the
 * program's own. The node's pids.max leaves room for init. init goes back to the node's own
 * cgroups (--init-return-procs) as soon as the program has ended: reaping, the file-size scan and
 * the copy-outs are the platform's work, and their memory must not meet the run's limit. (The
 * run's OOM killer may still choose init, a small process, over a program whose memory is in
 * files; the kernel's oom_kill counter then proves MLE without init's report: docs/sandbox.md.) */
#include <errno.h>
#include <unistd.h>

#include "cgroups.h"
#include "config.h"
#include "status.h"

static int write_self(int fd)
{
	ssize_t n;
	do
		n = write(fd, "0", 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : n < 0 ? errno : EIO;
}

int cgroups_join(const struct config *c)
{
	for (size_t i = 0; i < c->n_cgroups; i++) {
		int err = write_self(c->cgroup_fds[i]);
		if (err)
			return fail(CTL_CGROUP, err, "join %s", c->cgroup_paths[i]);
	}
	return 0;
}

int cgroups_join_init(struct config *c)
{
	for (size_t i = 0; i < c->n_cgroups; i++) {
		int err = write_self(c->cgroup_fds[i]);
		if (err)
			return fail(CTL_CGROUP, err, "init: join %s", c->cgroup_paths[i]);
		close(c->cgroup_fds[i]);
		c->cgroup_fds[i] = -1;
	}
	return 0;
}

void cgroups_leave_init(const struct config *c)
{
	for (size_t i = 0; i < c->n_init_returns; i++) {
		if (write_self(c->init_return_fds[i])) {
			/* then the platform's work after the run is charged to the run: only that */
		}
		close(c->init_return_fds[i]);
	}
}
