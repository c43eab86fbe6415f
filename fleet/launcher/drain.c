/* The output drainer (--output-cap): the program's stdout and stderr are pipes, and the launcher
 * itself reads them while it supervises init. It forwards the first CAP bytes of each to the
 * supervisor's connections and splices the rest into /dev/null, so a flood costs the kernel a page
 * move and costs the supervisor nothing. Right after clone the launcher moves itself into the
 * run's CPU cgroups (--drainer-cgroup-procs), so draining is charged to the run; no extra process
 * is created for it. At the end it reports "output out TOTAL" and "output err TOTAL" (bytes the
 * program wrote). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "copyfd.h"
#include "drain.h"
#include "kept.h"
#include "status.h"

#define CHUNK 65536
#define SPLICE_MAX (1 << 20)

struct stream {
	const char *name;
	int in;  /* read end of the program's pipe; -1 at EOF or without a drainer */
	int out; /* the supervisor's connection; -1 once writing to it failed */
	uint64_t total;
	uint64_t forwarded;
};

static struct {
	int active;
	uint64_t cap;
	int devnull;
	int *cgroup_fds;
	int *return_fds;
	size_t n_returns;
	struct stream s[2];
} d = {.devnull = -1, .s = {{"out", -1, -1, 0, 0}, {"err", -1, -1, 0, 0}}};

/* One readiness event on a stream: forward while under the cap, else discard in the kernel. */
static void drain_step(struct stream *s)
{
	static char buf[CHUNK];
	ssize_t r;
	if (s->forwarded < d.cap) {
		size_t want = d.cap - s->forwarded < CHUNK ? (size_t)(d.cap - s->forwarded) : CHUNK;
		r = read(s->in, buf, want);
		if (r > 0) {
			if (s->out >= 0 && write_full(s->out, buf, (size_t)r) < 0) {
				close(s->out);
				s->out = -1; /* the supervisor is gone: keep draining so the program never blocks */
			}
			s->forwarded += (uint64_t)r;
		}
	} else {
		r = splice(s->in, NULL, d.devnull, NULL, SPLICE_MAX, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (r < 0 && errno == EINVAL)
			r = read(s->in, buf, CHUNK); /* no splice to this /dev/null: read and drop */
	}
	if (r > 0)
		s->total += (uint64_t)r;
	else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
		close(s->in);
		s->in = -1;
	}
}

/* Before clone: the program's fds 1 and 2 become pipes; the supervisor's connections move up. */
int drain_prepare(struct config *c)
{
	int pipes[2][2];
	d.cap = c->output_cap;
	d.devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (d.devnull < 0)
		return fail(CTL_OUTPUT_DRAIN, errno, "open /dev/null");
	d.cgroup_fds = calloc(c->n_drainer_cgroups + 1, sizeof *d.cgroup_fds);
	if (!d.cgroup_fds)
		return fail(CTL_OUTPUT_DRAIN, ENOMEM, "calloc");
	for (size_t i = 0; i < c->n_drainer_cgroups; i++) {
		d.cgroup_fds[i] = open(c->drainer_cgroup_paths[i], O_WRONLY | O_CLOEXEC);
		if (d.cgroup_fds[i] < 0)
			return fail(CTL_OUTPUT_DRAIN, errno, "open %s", c->drainer_cgroup_paths[i]);
	}
	d.return_fds = calloc(c->n_drainer_returns + 1, sizeof *d.return_fds);
	if (!d.return_fds)
		return fail(CTL_OUTPUT_DRAIN, ENOMEM, "calloc");
	for (; d.n_returns < c->n_drainer_returns; d.n_returns++) {
		d.return_fds[d.n_returns] = kept_open(c->drainer_return_paths[d.n_returns]);
		if (d.return_fds[d.n_returns] < 0)
			return fail(CTL_OUTPUT_DRAIN, errno, "open %s", c->drainer_return_paths[d.n_returns]);
	}
	for (int i = c->stdout_inherit ? 1 : 0; i < 2; i++) {
		int target = i == 0 ? STDOUT_FILENO : STDERR_FILENO;
		if (pipe2(pipes[i], O_CLOEXEC) < 0)
			return fail(CTL_OUTPUT_DRAIN, errno, "pipe");
		d.s[i].in = pipes[i][0];
		d.s[i].out = fcntl(target, F_DUPFD_CLOEXEC, 10);
		if (d.s[i].out < 0 || fcntl(d.s[i].in, F_SETFL, O_NONBLOCK) < 0 || dup2(pipes[i][1], target) < 0)
			return fail(CTL_OUTPUT_DRAIN, errno, "wire the %s pipe", d.s[i].name);
		close(pipes[i][1]);
	}
	/* One pipe for both: the program's writes to either stream arrive in the order written; the
	 * stderr pipe has no writer left and ends at once. */
	if (c->merge_stderr && !c->stdout_inherit && dup2(STDOUT_FILENO, STDERR_FILENO) < 0)
		return fail(CTL_OUTPUT_DRAIN, errno, "merge stderr into stdout");
	d.active = 1;
	return 0;
}

/* After clone, before init lets the program start (it is still assembling the root): the launcher
 * joins the run's CPU cgroups, so its draining is charged to the run. */
int drain_join(const struct config *c)
{
	for (size_t i = 0; i < c->n_drainer_cgroups; i++) {
		ssize_t n;
		do
			n = write(d.cgroup_fds[i], "0", 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			return fail(CTL_OUTPUT_DRAIN, n < 0 ? errno : EIO, "join %s", c->drainer_cgroup_paths[i]);
		close(d.cgroup_fds[i]);
	}
	/* At once, not held back until "done": a run whose launcher is lost later still shows which
	 * controls held. */
	status_applied(CTL_OUTPUT_DRAIN);
	status_flush();
	return 0;
}

void drain_pollfds(struct pollfd *p)
{
	for (int i = 0; i < 2; i++)
		p[i] = (struct pollfd){.fd = d.s[i].in, .events = POLLIN};
}

void drain_events(const struct pollfd *p)
{
	for (int i = 0; i < 2; i++)
		if (d.s[i].in >= 0 && p[i].revents)
			drain_step(&d.s[i]);
}

/* In init, right after clone: init never drains, and its copies of the supervisor's connections
 * would keep them open until it exits. */
void drain_forget(void)
{
	for (int i = 0; i < 2; i++) {
		if (d.s[i].out >= 0)
			close(d.s[i].out);
		if (d.s[i].in >= 0)
			close(d.s[i].in);
	}
	if (d.devnull >= 0)
		close(d.devnull);
}

/* At the end: the totals, and the launcher leaves the run's cgroups (back to the node's own), so
 * the supervisor finds them empty and can remove them once it has read "done". */
void drain_report(void)
{
	if (!d.active)
		return;
	for (int i = 0; i < 2; i++) {
		status_line("output %s %llu", d.s[i].name, (unsigned long long)d.s[i].total);
		if (d.s[i].out >= 0)
			close(d.s[i].out); /* the supervisor sees the stream end */
	}
	for (size_t i = 0; i < d.n_returns; i++) {
		if (write(d.return_fds[i], "0", 1) != 1) {
			/* the run's cgroup then stays busy until this process has exited: only slower */
		}
		close(d.return_fds[i]);
	}
}
