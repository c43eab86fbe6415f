/* init: pid 1 of the sandbox's pid namespace (root; in the run's cgroups only while the program
 * lives, cgroups.c). Sets up the namespaces, forks the program child (pid 2), builds the root
 * while the child drops its privileges, lets it exec, reports how it ended,
 * kills and reaps whatever is left, does the copy-outs, exits. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroups.h"
#include "config.h"
#include "copyout.h"
#include "devfs.h"
#include "drain.h"
#include "evidence.h"
#include "fsize.h"
#include "init.h"
#include "mounts.h"
#include "namespaces.h"
#include "procfs.h"
#include "program.h"
#include "relay.h"
#include "rootfs.h"
#include "run.h"
#include "sources.h"
#include "status.h"

/* ---- set-up pipeline (init side) ---- */

struct step {
	int (*fn)(struct config *);
	int applied; /* control reported once fn succeeded, -1 for none */
};

/* Namespaces: done before the program child is forked, so it shares them
 * (the network namespace is per process: it must be joined before fork). */
static const struct step ns_steps[] = {
	{ns_check_pid, CTL_PID_NAMESPACE},
	{ns_mount_private, CTL_MOUNT_NAMESPACE},
	{ns_join_net, CTL_NETWORK_NAMESPACE},
	{ns_ipc, CTL_IPC_NAMESPACE},
	{ns_uts, CTL_UTS_NAMESPACE},
	{ns_time, CTL_TIME_NAMESPACE},
};

/* The root filesystem: assembled while the program child drops its
 * privileges in parallel. pivot_root moves the child's root and cwd too
 * (both are the old root), so it needs nothing from this list but the end. */
static const struct step root_steps[] = {
	{sources_open, -1},
	{procfs_masks_mount, -1},
	{rootfs_stage, -1},
	{rootfs_box, -1},
	{rootfs_tmp, CTL_TMP},
	{devfs_mount, CTL_DEV},
	{mounts_fill_box, CTL_WORK_DIR},
	{mounts_binds, -1},
	{mounts_symlinks, -1},
	{procfs_mount, CTL_PROC},
	{procfs_mask, CTL_PROC_MASKS},
	{rootfs_pivot, -1},
	{rootfs_seal, CTL_ROOT_FILESYSTEM},
	{cgroups_join_init, -1}, /* reported with the program's own cgroup control */
};

__attribute__((noreturn)) static void report_failure_and_exit(void)
{
	status_fail(&g_failure);
	status_flush();
	_exit(1);
}

static void run_steps(struct config *c, const struct step *steps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (steps[i].fn(c) < 0)
			report_failure_and_exit();
		if (steps[i].applied >= 0)
			status_applied(steps[i].applied);
	}
}

/* /proc/1/cmdline is readable by the program and would show the host paths
 * of the launcher's arguments. Past this point init needs only the copy-out
 * names, so those are copied and the argv strings zeroed. */
static void hide_cmdline(struct config *c)
{
	for (size_t i = 0; i < c->n_copy_outs; i++) {
		char *name = strdup(c->copy_outs[i].name);
		c->copy_outs[i].name = name ? name : "?";
		c->copy_outs[i].host = NULL;
	}
	if (c->args_end > c->args_start)
		memset(c->args_start, 0, (size_t)(c->args_end - c->args_start));
}

/* ---- init ---- */

/* init dies with the launcher (PDEATHSIG), which may have died before that was armed. */
static void bind_to_launcher(struct config *c)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	struct pollfd lp = {.fd = c->launcher_pidfd, .events = POLLIN};
	if (poll(&lp, 1, 0) != 0)
		_exit(1);
	close(c->launcher_pidfd);
}

static void open_pipes(int exec_pipe[2], int go_pipe[2])
{
	if (pipe2(exec_pipe, O_CLOEXEC) < 0 || pipe2(go_pipe, O_CLOEXEC) < 0) {
		fail(CTL_EXEC, errno, "pipe2");
		report_failure_and_exit();
	}
}

static pid_t fork_program(struct config *c, int exec_pipe[2], int go_pipe[2])
{
	pid_t pid = fork();
	if (pid < 0) {
		fail(CTL_EXEC, errno, "fork");
		report_failure_and_exit();
	}
	if (pid == 0) {
		close(c->init_end_fd);
		close(exec_pipe[0]);
		close(go_pipe[1]);
		program_child(c, exec_pipe[1], go_pipe[0]);
	}
	close(exec_pipe[1]);
	close(go_pipe[0]);
	return pid;
}

/* The program's wall clock starts when it may exec; init reports it, since the supervisor
 * only sees status lines arrive, which for a short program can be both at once. */
static void send_go(int go_w, struct timespec *t_go)
{
	clock_gettime(CLOCK_MONOTONIC, t_go);
	if (write(go_w, "g", 1) != 1) {
		/* the child already failed: its record is in the exec pipe */
	}
	close(go_w);
}

/* Only the program keeps the supervisor's stdin/stdout/stderr pipes. */
static void release_stdio(void)
{
	int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	for (int fd = 0; fd <= 2; fd++)
		if (devnull < 0 || dup2(devnull, fd) < 0)
			close(fd);
	if (devnull > 2)
		close(devnull);
}

/* The program child's record of its first failure, or EOF once it has exec'd. */
static void await_exec(const struct config *c, int exec_r)
{
	struct failure f;
	ssize_t r;
	do
		r = read(exec_r, &f, sizeof f);
	while (r < 0 && errno == EINTR);
	close(exec_r);
	if (r != 0) {
		if (r == (ssize_t)sizeof f) {
			program_controls_applied(c, f.n_ok);
		} else {
			fail(CTL_EXEC, r < 0 ? errno : EIO, "exec status pipe");
			f = g_failure;
		}
		status_fail(&f);
		status_flush();
		_exit(1);
	}
	program_controls_applied(c, INT_MAX);
	status_line("started");
	status_flush();
}

/* While the program lives, serve the file-size watch (fsize.c); the calls it counted. */
static unsigned serve_fsize_watch(pid_t pid, int fsize_watch)
{
	unsigned fsize_attempts = 0;
	int pidfd = fsize_watch >= 0 ? (int)syscall(SYS_pidfd_open, pid, 0) : -1;
	while (pidfd >= 0) {
		struct pollfd p[2] = {{.fd = pidfd, .events = POLLIN}, {.fd = fsize_watch, .events = POLLIN}};
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[1].revents & POLLIN)
			fsize_attempts += fsize_watch_serve(fsize_watch);
		if (p[0].revents & POLLIN)
			break;
	}
	return fsize_attempts;
}

static int wait_program(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			_exit(1); /* cannot happen; no `exit` line rather than a wrong one */
	return st;
}

__attribute__((noreturn)) void init_main(struct config *c)
{
	bind_to_launcher(c);
	close(CONTROL_FD);
	if (g_run_over_fd >= 0)
		close(g_run_over_fd); /* the launcher's to close when the run is over */
	drain_forget();
	relay_forget();
	umask(0);

	/* The child's root and cwd must be the old root for pivot_root to move them. */
	if (chdir("/") < 0) {
		fail(CTL_ROOT_FILESYSTEM, errno, "chdir /");
		report_failure_and_exit();
	}
	run_steps(c, ns_steps, sizeof ns_steps / sizeof ns_steps[0]);
	int exec_pipe[2], go_pipe[2];
	open_pipes(exec_pipe, go_pipe);
	int fsize_watch = fsize_watch_install(c);
	if (fsize_watch == -1)
		report_failure_and_exit();
	pid_t pid = fork_program(c, exec_pipe, go_pipe);

	/* On failure init exits; the child sees EOF on the go pipe (and dies with
	 * the pid namespace anyway). */
	run_steps(c, root_steps, sizeof root_steps / sizeof root_steps[0]);
	hide_cmdline(c);
	struct timespec t_go, t_end;
	send_go(go_pipe[1], &t_go);
	release_stdio();
	await_exec(c, exec_pipe[0]);

	unsigned fsize_attempts = serve_fsize_watch(pid, fsize_watch);
	int st = wait_program(pid);
	clock_gettime(CLOCK_MONOTONIC, &t_end);
	cgroups_leave_init(c);
	unsigned leftover = evidence_kill_leftovers();
	evidence_report(c, st, &t_go, &t_end, fsize_attempts, leftover);
	copyouts_run(c);
	status_flush();
	/* the report is whole: the launcher may say "done" without waiting for init's exit. A close
	 * without this byte is init's death (killed, or a failed set-up). */
	if (write(c->init_end_fd, "r", 1) != 1) {
		/* the launcher then waits for init's exit: only slower */
	}
	close(c->init_end_fd);
	_exit(0);
}
