/* init: pid 1 of the sandbox's pid namespace (root; in the run's cgroups only while the program
 * lives, cgroups.c). Sets up the namespaces, forks the program child (pid 2), builds the root
 * while the child drops its privileges, lets it exec, reports how it ended,
 * kills and reaps whatever is left, does the copy-outs, exits. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launcher.h"

#define WALK_MAX_ENTRIES 10000
#define WALK_MAX_DEPTH 16

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
	{mounts_open_sources, -1},
	{mounts_root, -1},
	{mounts_box, -1},
	{mounts_tmp, CTL_TMP},
	{mounts_dev, CTL_DEV},
	{mounts_fill_box, CTL_WORK_DIR},
	{mounts_binds, -1},
	{mounts_symlinks, -1},
	{mounts_pivot, -1},
	{procfs_mount, CTL_PROC},
	{procfs_mask, CTL_PROC_MASKS},
	{mounts_seal, CTL_ROOT_FILESYSTEM},
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

/* ---- program child ---- */

/* Program-side controls in the order they are applied; n_ok of a failure
 * counts the entries of this list that had succeeded. */
static int program_controls[10];
static int n_program_controls;

static void build_program_controls(const struct config *c)
{
	n_program_controls = 0;
	if (c->n_cgroups)
		program_controls[n_program_controls++] = CTL_CGROUP;
	program_controls[n_program_controls++] = CTL_SESSION;
	program_controls[n_program_controls++] = CTL_CGROUP_NAMESPACE;
	program_controls[n_program_controls++] = CTL_RLIMITS;
	program_controls[n_program_controls++] = CTL_UID_GID;
	program_controls[n_program_controls++] = CTL_CAPABILITIES;
	program_controls[n_program_controls++] = CTL_NO_NEW_PRIVILEGES;
	program_controls[n_program_controls++] = CTL_SECCOMP;
	program_controls[n_program_controls++] = CTL_ENVIRONMENT;
}

static const char *env_path(char *const *envp)
{
	for (; *envp; envp++)
		if (!strncmp(*envp, "PATH=", 5))
			return *envp + 5;
	return "/usr/local/bin:/usr/bin:/bin";
}

/* execve, with a PATH search (from the sandbox environment) for a bare name. */
static int exec_program(const struct config *c)
{
	const char *file = c->argv[0];
	if (strchr(file, '/')) {
		execve(file, c->argv, c->envp);
		return fail(CTL_EXEC, errno, "execve %s", file);
	}
	int err = ENOENT;
	char path[PATH_MAX];
	const char *p = env_path(c->envp);
	for (;;) {
		const char *e = strchrnul(p, ':');
		size_t dl = (size_t)(e - p);
		if (dl == 0) { /* empty entry: current directory */
			path[0] = '.';
			dl = 1;
		} else if (dl < sizeof path) {
			memcpy(path, p, dl);
		}
		if (dl + 1 + strlen(file) < sizeof path) {
			path[dl] = '/';
			strcpy(path + dl + 1, file);
			execve(path, c->argv, c->envp);
			if (errno == EACCES)
				err = EACCES;
			else if (errno != ENOENT && errno != ENOTDIR)
				return fail(CTL_EXEC, errno, "execve %s", path);
		}
		if (!*e)
			break;
		p = e + 1;
	}
	return fail(CTL_EXEC, err, "execve %s (PATH search)", file);
}

/* The program child (pid 2). Forked as soon as the namespaces exist, it
 * drops everything in the fixed order below while init is still assembling
 * the root, then waits for init's "go" (root complete: pivoted, proc mounted,
 * sealed) and only then changes into the work dir and execs. Its root and cwd
 * are the old root until init's pivot_root moves them. Before "go" it runs
 * nothing but this code, as the program's uid, non-dumpable (the uid change
 * cleared that), with no fd but 0-2 and its two pipe ends. */
__attribute__((noreturn)) static void program_child(struct config *c, int exec_w, int go_r)
{
	int n_ok = 0;
	sigset_t none;
	char go;

	close(STATUS_FD);
	for (size_t i = 0; i < c->n_copy_outs; i++)
		close(c->copy_outs[i].fd);
	/* What is left (cgroup fds, the two pipe ends) is O_CLOEXEC already;
	 * anything else the launcher inherited is made so too. */
	if (syscall(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC) < 0) {
		fail(CTL_EXEC, errno, "close_range");
		goto out;
	}
	/* The launcher ignores SIGPIPE; ignored dispositions survive execve. */
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	umask(022);

	if (c->n_cgroups) {
		if (cgroups_join(c) < 0)
			goto out;
		n_ok++;
	}
	/* A session of its own: kill(0, ...) and job-control signals reach only
	 * the program's own processes, never the launcher, the node or another run. */
	if (setsid() < 0) {
		fail(CTL_SESSION, errno, "setsid");
		goto out;
	}
	n_ok++;
	/* Made after joining the run's cgroups, so /proc/self/cgroup shows "/". */
	if (unshare(CLONE_NEWCGROUP) < 0) {
		fail(CTL_CGROUP_NAMESPACE, errno, "unshare(CLONE_NEWCGROUP)");
		goto out;
	}
	n_ok++;
	if (rlimits_apply(c) < 0)
		goto out;
	n_ok++;
	if (privileges_drop_caps_bounding() < 0)
		goto out;
	if (privileges_set_ids(c) < 0)
		goto out;
	n_ok++;
	if (privileges_clear_caps() < 0)
		goto out;
	n_ok++;
	if (privileges_no_new_privs() < 0)
		goto out;
	n_ok++;
	if (seccomp_install() < 0)
		goto out;
	n_ok++;

	/* EOF: init failed to build the root and has already reported it. */
	ssize_t r;
	do
		r = read(go_r, &go, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		_exit(127);
	if (chdir(c->cwd) < 0) {
		fail(CTL_WORK_DIR, errno, "chdir %s", c->cwd);
		goto out;
	}
	exec_program(c);
out:
	g_failure.n_ok = n_ok;
	if (write(exec_w, &g_failure, sizeof g_failure) < 0) {
		/* init will see EOF and a 127 exit; nothing else to do */
	}
	_exit(127);
}

/* ---- after the program ---- */

static int is_pid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* Processes in the namespace other than init (zombies included). */
static unsigned count_processes(void)
{
	unsigned n = 0;
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (is_pid_name(e->d_name) && strcmp(e->d_name, "1"))
			n++;
	closedir(d);
	return n;
}

static void reap_all(int flags)
{
	for (;;) {
		pid_t p = waitpid(-1, NULL, flags);
		if (p > 0)
			continue;
		if (p < 0 && errno == EINTR)
			continue;
		break; /* ECHILD, or nothing ready with WNOHANG */
	}
}

/* Regular files of size >= LIMIT under DIR_FD; never follows a symlink. */
static unsigned walk_fsize(int dir_fd, int depth, rlim_t limit, unsigned *budget)
{
	unsigned hits = 0;
	DIR *d = fdopendir(dir_fd);
	if (!d) {
		close(dir_fd);
		return 0;
	}
	struct dirent *e;
	while (*budget > 0 && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		(*budget)--;
		if (e->d_type == DT_DIR) {
			if (depth + 1 >= WALK_MAX_DEPTH)
				continue;
			int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				hits += walk_fsize(sub, depth + 1, limit, budget);
			continue;
		}
		if (e->d_type != DT_REG && e->d_type != DT_UNKNOWN)
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    (rlim_t)st.st_size >= limit)
			hits++;
	}
	closedir(d);
	return hits;
}

static unsigned fsize_hits(const struct config *c)
{
	rlim_t limit = rlimits_fsize(c);
	if (limit == RLIM_INFINITY)
		return 0;
	unsigned budget = WALK_MAX_ENTRIES, hits = 0;
	int roots[2] = {c->box_fd, c->tmp_fd};
	for (int i = 0; i < 2; i++) {
		int fd = openat(roots[i], ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			hits += walk_fsize(fd, 0, limit, &budget);
	}
	return hits;
}

static void copy_out_one(const struct config *c, const struct copy_out *co)
{
	int in = openat(c->box_fd, co->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (in < 0) {
		const char *why = errno == ENOENT ? "missing"
				  : (errno == ELOOP || errno == ENXIO || errno == EISDIR) ? "not_regular"
											: "io_error";
		status_line("copyout_fail %s %s", co->name, why);
		return;
	}
	struct stat st;
	const char *why = NULL;
	if (fstat(in, &st) < 0)
		why = "io_error";
	else if (!S_ISREG(st.st_mode))
		why = "not_regular";
	else if (st.st_nlink != 1)
		why = "hardlinked";
	else if ((uint64_t)st.st_size > co->max)
		why = "too_large";
	uint64_t copied = 0;
	if (!why && copy_fd(in, co->fd, (uint64_t)st.st_size, &copied) < 0)
		why = "io_error";
	close(in);
	if (why) {
		if (copied && ftruncate(co->fd, 0) < 0) {
			/* the supervisor discards a failed copy-out anyway */
		}
		if (!strcmp(why, "too_large"))
			status_line("copyout_fail %s %s %llu", co->name, why, (unsigned long long)st.st_size);
		else
			status_line("copyout_fail %s %s", co->name, why);
		return;
	}
	status_line("copyout %s %llu", co->name, (unsigned long long)copied);
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

__attribute__((noreturn)) void init_main(struct config *c)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	/* The launcher may have died before PDEATHSIG was armed. */
	struct pollfd lp = {.fd = c->launcher_pidfd, .events = POLLIN};
	if (poll(&lp, 1, 0) != 0)
		_exit(1);
	close(c->launcher_pidfd);
	close(CONTROL_FD);
	umask(0);

	/* The child's root and cwd must be the old root for pivot_root to move them. */
	if (chdir("/") < 0) {
		fail(CTL_ROOT_FILESYSTEM, errno, "chdir /");
		report_failure_and_exit();
	}
	run_steps(c, ns_steps, sizeof ns_steps / sizeof ns_steps[0]);

	build_program_controls(c);
	int exec_pipe[2], go_pipe[2];
	if (pipe2(exec_pipe, O_CLOEXEC) < 0 || pipe2(go_pipe, O_CLOEXEC) < 0) {
		fail(CTL_EXEC, errno, "pipe2");
		report_failure_and_exit();
	}
	int fsize_watch = fsize_watch_install(c);
	if (fsize_watch == -1)
		report_failure_and_exit();
	pid_t pid = fork();
	if (pid < 0) {
		fail(CTL_EXEC, errno, "fork");
		report_failure_and_exit();
	}
	if (pid == 0) {
		close(exec_pipe[0]);
		close(go_pipe[1]);
		program_child(c, exec_pipe[1], go_pipe[0]);
	}
	close(exec_pipe[1]);
	close(go_pipe[0]);

	/* On failure init exits; the child sees EOF on the go pipe (and dies with
	 * the pid namespace anyway). */
	run_steps(c, root_steps, sizeof root_steps / sizeof root_steps[0]);
	hide_cmdline(c);
	/* The program's wall clock starts when it may exec; init reports it, since the supervisor
	 * only sees status lines arrive, which for a short program can be both at once. */
	struct timespec t_go, t_end;
	clock_gettime(CLOCK_MONOTONIC, &t_go);
	if (write(go_pipe[1], "g", 1) != 1) {
		/* the child already failed: its record is in the exec pipe */
	}
	close(go_pipe[1]);

	/* Only the program keeps the supervisor's stdin/stdout/stderr pipes. */
	int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	for (int fd = 0; fd <= 2; fd++)
		if (devnull < 0 || dup2(devnull, fd) < 0)
			close(fd);
	if (devnull > 2)
		close(devnull);

	struct failure f;
	ssize_t r;
	do
		r = read(exec_pipe[0], &f, sizeof f);
	while (r < 0 && errno == EINTR);
	close(exec_pipe[0]);
	if (r != 0) {
		if (r == (ssize_t)sizeof f) {
			for (int i = 0; i < f.n_ok && i < n_program_controls; i++)
				status_applied(program_controls[i]);
		} else {
			fail(CTL_EXEC, r < 0 ? errno : EIO, "exec status pipe");
			f = g_failure;
		}
		status_fail(&f);
		status_flush();
		_exit(1);
	}
	for (int i = 0; i < n_program_controls; i++)
		status_applied(program_controls[i]);
	status_line("started");
	status_flush();

	/* While the program lives, serve the file-size watch (fsize.c). */
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
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			_exit(1); /* cannot happen; no `exit` line rather than a wrong one */
	clock_gettime(CLOCK_MONOTONIC, &t_end);
	cgroups_leave_init(c);

	/* Everything else in the namespace: count, kill, reap. */
	reap_all(WNOHANG); /* orphans that already exited are not "alive" */
	unsigned leftover = 0;
	if (kill(-1, 0) == 0) {
		leftover = count_processes();
		kill(-1, SIGKILL);
		reap_all(0);
	}

	if (WIFSIGNALED(st))
		status_line("exit signaled %d", WTERMSIG(st));
	else
		status_line("exit exited %d", WEXITSTATUS(st));
	status_line("wall %lld", (long long)(t_end.tv_sec - t_go.tv_sec) * 1000000 + (t_end.tv_nsec - t_go.tv_nsec) / 1000);
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGXFSZ)
		status_line("fsize_hit %u", fsize_hits(c) + fsize_attempts);
	status_line("leftover %u", leftover);

	struct rusage ru;
	if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
		memset(&ru, 0, sizeof ru);
	status_line("usage %llu %llu %ld",
		    (unsigned long long)ru.ru_utime.tv_sec * 1000000ull + (unsigned long long)ru.ru_utime.tv_usec,
		    (unsigned long long)ru.ru_stime.tv_sec * 1000000ull + (unsigned long long)ru.ru_stime.tv_usec,
		    ru.ru_maxrss);

	for (size_t i = 0; i < c->n_copy_outs; i++)
		copy_out_one(c, &c->copy_outs[i]);
	status_flush();
	_exit(0);
}
