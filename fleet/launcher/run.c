/* One run (launcher_main): host-side fds, clone into namespaces, supervising init until the run
 * ends. The command line is args.c's. See PROTOCOL.md. */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "args.h"
#include "config.h"
#include "drain.h"
#include "forward.h"
#include "housekeeping.h"
#include "init.h"
#include "kept.h"
#include "relay.h"
#include "run.h"
#include "status.h"

#ifndef CLONE_PIDFD /* a fork-like clone that returns a pidfd of the child */
#define CLONE_PIDFD 0x00001000
#endif

#ifndef NSFS_MAGIC
#define NSFS_MAGIC 0x6e736673
#endif

/* ---- host-side fds, opened while host paths are visible ---- */

static int open_host_fds(struct config *c)
{
	for (size_t i = 0; i < c->n_cgroups; i++) {
		c->cgroup_fds[i] = open(c->cgroup_paths[i], O_WRONLY | O_CLOEXEC);
		if (c->cgroup_fds[i] < 0)
			return fail(CTL_CGROUP, errno, "open %s", c->cgroup_paths[i]);
	}
	for (size_t i = 0; i < c->n_init_returns; i++) {
		c->init_return_fds[i] = kept_open(c->init_return_paths[i]);
		if (c->init_return_fds[i] < 0)
			return fail(CTL_CGROUP, errno, "open %s", c->init_return_paths[i]);
	}
	if (c->netns_path) {
		c->netns_fd = open(c->netns_path, O_RDONLY | O_CLOEXEC);
		if (c->netns_fd < 0)
			return fail(CTL_NETWORK_NAMESPACE, errno, "open %s", c->netns_path);
	}
	for (size_t i = 0; i < c->n_copy_outs; i++) {
		struct copy_out *co = &c->copy_outs[i];
		co->fd = open(co->host, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (co->fd < 0) {
			fail(CTL_WORK_DIR, errno, "create copy-out target %s", co->host);
			while (i-- > 0) /* the run never starts: take back what was created */
				unlink(c->copy_outs[i].host);
			return -1;
		}
	}
	c->launcher_pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (c->launcher_pidfd < 0)
		return fail(CTL_PID_NAMESPACE, errno, "pidfd_open self");
	return 0;
}

/* --cpus: the launcher moves to the run's CPUs now, so init and the program are born there and
 * their joins of the run's cpuset (and the launcher's own, to drain) move no running task: each
 * such move waits for the other CPU's stopper thread. The slot's set-up stays on its own CPUs too,
 * off other slots' dedicated ones. */
static int take_cpus(const struct config *c)
{
	if (c->has_cpus && sched_setaffinity(0, sizeof c->cpus, &c->cpus) < 0)
		return fail(CTL_CGROUP, errno, "sched_setaffinity --cpus");
	return 0;
}

/* ---- supervision ---- */

static void write_now(const char *line)
{
	status_line("%s", line);
	status_flush();
}

static void kill_init(int pidfd)
{
	if (syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0) == 0)
		write_now("killed");
}

/* Until init has reported (it writes a byte to END and closes it) or died (END closes without
 * the byte): a 'k' or EOF (or any error) on the control fd kills it; 'i' and 't' are SIGINT and
 * SIGTERM for the program, 'K' SIGKILL for it alone (forward.c). Meanwhile, and until the
 * program's output pipes reach EOF, the output is drained (drain.c). Returns 1 when init reported. */
static int supervise(pid_t init, int pidfd, int end)
{
	int reported = 0;
	struct pollfd p[5] = {{.fd = CONTROL_FD, .events = POLLIN}, {.fd = end, .events = POLLIN}};
	for (;;) {
		drain_pollfds(&p[2]);
		relay_pollfd(&p[4]);
		if (p[1].fd < 0 && p[2].fd < 0 && p[3].fd < 0)
			break; /* init exited and the output reached its end */
		int n = poll(p, 5, -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (p[0].fd >= 0)
				kill_init(pidfd); /* cannot watch the control fd: fail closed */
			break;
		}
		drain_events(&p[2]);
		relay_event(&p[4]);
		if (p[1].revents) {
			/* init has reported: the program and everything it left are dead and reaped, so
			 * the pipes end too; init's own exit is not waited for */
			char byte;
			ssize_t r = read(end, &byte, 1);
			if (r < 0 && errno == EINTR)
				continue;
			reported = r == 1;
			p[0].fd = p[1].fd = -1;
			continue;
		}
		if (p[0].revents) {
			char buf[64];
			ssize_t r = read(CONTROL_FD, buf, sizeof buf);
			if (r < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (r <= 0 || memchr(buf, 'k', (size_t)r)) {
				kill_init(pidfd);
				p[0].fd = -1; /* from now on only wait for init */
			} else {
				forward_signals(init, buf, (size_t)r);
			}
		}
	}
	return reported;
}

/* The run's mount namespace, held from just after clone until the launcher exits (after "done";
 * in zygote mode once the supervisor has closed its end): the kernel then tears it down (detaches
 * every mount, waiting for an RCU grace period) in the launcher's exit, not in init's, which the
 * launcher waits for before "done". Nothing but the namespace's mounts is kept: no process, no
 * path of it. Best effort: an init that already died (a failed set-up) has nothing to hold. */
static void hold_mount_namespace(long init)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/ns/mnt", init);
	if (open(path, O_RDONLY | O_CLOEXEC) < 0) {
		/* init's exit tears it down instead: slower, no less clean */
	}
}

int g_run_over_fd = -1;

/* Nothing beyond fds 0-4 is part of the contract, but the zygote's run-over pipe and the files it
 * keeps for every run (kept.c): whatever else the spawner leaked is dropped, so it can never reach
 * init or the program. */
static void close_inherited(void)
{
	int keep[KEPT_MAX + 1];
	size_t n = kept_list(keep, KEPT_MAX);
	if (g_run_over_fd >= 0)
		keep[n++] = g_run_over_fd;
	for (size_t i = 1; i < n; i++) /* a few fds: insertion sort */
		for (size_t j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int t = keep[j];
			keep[j] = keep[j - 1];
			keep[j - 1] = t;
		}
	unsigned from = CONTROL_FD + 1;
	for (size_t i = 0; i < n; i++) {
		if (keep[i] < (int)from)
			continue;
		if ((unsigned)keep[i] > from)
			syscall(SYS_close_range, from, (unsigned)keep[i] - 1, 0);
		from = (unsigned)keep[i] + 1;
	}
	syscall(SYS_close_range, from, ~0U, 0);
}

static void reap(long pid)
{
	int st;
	while (waitpid((pid_t)pid, &st, 0) < 0 && errno == EINTR)
		;
}

static int early_fail(void)
{
	status_fail(&g_failure);
	status_line("done");
	status_flush();
	return 1;
}

/* One run. args_start..args_end is the process's own command-line area, which init wipes so the
 * program cannot read host paths from /proc/1/cmdline. */
int launcher_main(int argc, char **argv, char *args_start, char *args_end)
{
	static struct config cfg;
	struct config *c = &cfg;

	pid_t parent = getppid();
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
		return 1;
	if (fcntl(STATUS_FD, F_GETFD) < 0)
		return 2; /* no status channel: nobody to report to */
	if (fcntl(CONTROL_FD, F_GETFD) < 0) {
		fail(CTL_EXEC, errno, "control fd 4 is not open");
		return early_fail();
	}
	close_inherited();
	c->args_start = args_start;
	c->args_end = args_end;
	if (parse_args(argc, argv, c) < 0 || take_cpus(c) < 0 || open_host_fds(c) < 0)
		return early_fail();
	if ((c->has_output_cap && drain_prepare(c) < 0) || relay_prepare() < 0)
		return early_fail();
	kept_close_all(); /* the copies taken are all this run needs */

	int end[2];
	if (pipe2(end, O_CLOEXEC) < 0) {
		fail(CTL_PID_NAMESPACE, errno, "pipe2");
		return early_fail();
	}
	c->init_end_fd = end[1];
	int pidfd = -1;
	unsigned long flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_PIDFD | SIGCHLD;
	if (c->netns_fd < 0)
		flags |= CLONE_NEWNET;
	/* fork-like clone (no new stack): the child continues here. */
	long pid = syscall(SYS_clone, flags, NULL, &pidfd, NULL, 0);
	if (pid < 0) {
		fail(CTL_PID_NAMESPACE, errno, "clone(NEWPID|NEWNS|NEWIPC|NEWUTS%s)",
		     c->netns_fd < 0 ? "|NEWNET" : "");
		return early_fail();
	}
	if (pid == 0)
		init_main(c);
	close(end[1]);
	hold_mount_namespace(pid);

	/* The program's stdin/stdout/stderr are not ours to keep. */
	syscall(SYS_close_range, 0, 2, 0);
	if (c->has_output_cap && drain_join(c) < 0) {
		status_fail(&g_failure); /* the run does not count: kill it before the program starts */
		syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	}
	int reported = supervise((pid_t)pid, pidfd, end[0]);
	/* init died without its report (killed, or its set-up failed): the kernel kills the rest of
	 * its pid namespace in init's exit, and init is reaped only once all of it is. Until then a
	 * dying program may still be listed in the run's cgroup, which the supervisor empties on
	 * "done"; so "done" waits for that reap. */
	if (!reported)
		reap(pid);
	relay_end();
	drain_report();
	write_now("done");
	if (g_run_over_fd >= 0)
		close(g_run_over_fd); /* the zygote may fork the next spare now (earlier, it competes with "done") */
	housekeeping_move(); /* the teardown is not the slot's next run's to wait for */
	if (reported)
		reap(pid);
	return 0;
}
