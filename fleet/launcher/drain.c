/* The output drainer (--output-cap): the program's stdout and stderr are pipes, and a small
 * process of the launcher reads them. It forwards the first CAP bytes of each to the supervisor's
 * connections and splices the rest into /dev/null, so a flood costs the kernel a page move and
 * costs the supervisor nothing. The launcher moves it into the run's CPU and memory cgroups
 * (--drainer-cgroup-procs) before the program exists, so draining is charged to the run. At the
 * end it reports "output out TOTAL" and "output err TOTAL" (bytes the program wrote). */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "launcher.h"

#define CHUNK 65536
#define SPLICE_MAX (1 << 20)

struct stream {
	const char *name;
	int in;  /* read end of the program's pipe, -1 at EOF */
	int out; /* the supervisor's connection, -1 once writing to it failed */
	uint64_t total;
	uint64_t forwarded;
};

/* One readiness event on a stream: forward while under the cap, else discard in the kernel. */
static void drain_step(struct stream *s, uint64_t cap, int devnull)
{
	static char buf[CHUNK];
	ssize_t r;
	if (s->forwarded < cap) {
		size_t want = cap - s->forwarded < CHUNK ? (size_t)(cap - s->forwarded) : CHUNK;
		r = read(s->in, buf, want);
		if (r > 0) {
			if (s->out >= 0 && write_full(s->out, buf, (size_t)r) < 0) {
				close(s->out);
				s->out = -1; /* the supervisor is gone: keep draining so the program never blocks */
			}
			s->forwarded += (uint64_t)r;
		}
	} else {
		r = splice(s->in, NULL, devnull, NULL, SPLICE_MAX, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
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

static __attribute__((noreturn)) void drainer_main(const struct config *c, int out_r, int err_r, int devnull)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	/* Keep only the pipes, /dev/null, the supervisor's connections and the status channel. */
	close(CONTROL_FD);
	for (size_t i = 0; i < c->n_cgroups; i++)
		close(c->cgroup_fds[i]);
	for (size_t i = 0; i < c->n_copy_outs; i++)
		close(c->copy_outs[i].fd);
	if (c->netns_fd >= 0)
		close(c->netns_fd);
	close(c->launcher_pidfd);
	/* The OOM killer of the run's memory cgroup should pick the program, never its reader: exempt
	 * the drainer where the node holds CAP_SYS_RESOURCE (best effort; without it the drainer's few
	 * hundred KiB make it the last choice anyway, and an OOM kill is MLE whatever it hit). */
	int adj = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	if (adj >= 0) {
		if (write(adj, "-1000", 5) != 5) {
			/* not permitted here */
		}
		close(adj);
	}
	/* Nothing here needs root: run as the slot's unprivileged identity. */
	if (setgroups(0, NULL) < 0 || setresgid(c->gid, c->gid, c->gid) < 0 || setresuid(c->uid, c->uid, c->uid) < 0)
		_exit(1);
	struct stream s[2] = {{"out", out_r, STDOUT_FILENO, 0, 0}, {"err", err_r, STDERR_FILENO, 0, 0}};
	for (;;) {
		struct pollfd p[2] = {{.fd = s[0].in, .events = POLLIN}, {.fd = s[1].in, .events = POLLIN}};
		if (s[0].in < 0 && s[1].in < 0)
			break;
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		for (int i = 0; i < 2; i++)
			if (s[i].in >= 0 && p[i].revents)
				drain_step(&s[i], c->output_cap, devnull);
	}
	for (int i = 0; i < 2; i++)
		status_line("output %s %llu", s[i].name, (unsigned long long)s[i].total);
	status_flush();
	_exit(0);
}

int drain_start(struct config *c)
{
	int out_p[2], err_p[2];
	if (pipe2(out_p, O_CLOEXEC) < 0)
		return fail(CTL_OUTPUT_DRAIN, errno, "pipe");
	if (pipe2(err_p, O_CLOEXEC) < 0)
		return fail(CTL_OUTPUT_DRAIN, errno, "pipe");
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0)
		return fail(CTL_OUTPUT_DRAIN, errno, "open /dev/null");
	for (int i = 0; i < 2; i++) {
		int fd = i == 0 ? out_p[0] : err_p[0];
		if (fcntl(fd, F_SETFL, O_NONBLOCK) < 0)
			return fail(CTL_OUTPUT_DRAIN, errno, "O_NONBLOCK");
	}
	status_flush(); /* the child must not inherit unsent lines */
	pid_t pid = fork();
	if (pid < 0)
		return fail(CTL_OUTPUT_DRAIN, errno, "fork");
	if (pid == 0) {
		close(out_p[1]);
		close(err_p[1]);
		drainer_main(c, out_p[0], err_p[0], devnull);
	}
	c->drainer_pid = pid;
	close(out_p[0]);
	close(err_p[0]);
	close(devnull);
	char text[24];
	int len = snprintf(text, sizeof text, "%d", (int)pid);
	for (size_t i = 0; i < c->n_drainer_cgroups; i++) {
		int fd = open(c->drainer_cgroup_paths[i], O_WRONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : write(fd, text, (size_t)len);
		int err = errno;
		if (fd >= 0)
			close(fd);
		if (n != len) {
			kill(pid, SIGKILL);
			return fail(CTL_OUTPUT_DRAIN, err, "move the drainer into %s", c->drainer_cgroup_paths[i]);
		}
	}
	/* From here the program's stdout and stderr are the pipes; the supervisor's connections
	 * stay only with the drainer. */
	if (dup2(out_p[1], STDOUT_FILENO) < 0 || dup2(err_p[1], STDERR_FILENO) < 0) {
		kill(pid, SIGKILL);
		return fail(CTL_OUTPUT_DRAIN, errno, "dup2");
	}
	close(out_p[1]);
	close(err_p[1]);
	status_applied(CTL_OUTPUT_DRAIN);
	return 0;
}
