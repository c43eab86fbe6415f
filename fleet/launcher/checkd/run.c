/* The check server: one run of the checker, its limits and its stderr. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checkd.h"
#include "run.h"
#include "tree_cpu.h"
#include "warm_client.h"

extern char **environ;

/* The longest sleep between two readings of the checker's CPU time. */
#define CPU_POLL_MAX_MS 100

static uint64_t now_usec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* RLIMIT_CPU: a second above the CPU limit the server enforces by reading the checker's CPU clock. */
static uint64_t cpu_backstop_secs(const struct checkd_limits *limits)
{
	return (limits->cpu_ms + 999) / 1000 + 1;
}

/* The checker's process: stdin and stdout /dev/null, stderr the pipe, RLIMIT_CPU as a backstop. */
static void child(char **argv, const struct checkd_limits *limits, int err_w)
{
	int null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(err_w, 2) < 0)
		_exit(126);
	rlim_t secs = (rlim_t)cpu_backstop_secs(limits);
	struct rlimit cpu = {secs, secs};
	setrlimit(RLIMIT_CPU, &cpu);
	/* Under memory pressure the cgroup's OOM killer picks the checker, never the server (best effort). */
	int adj = open("/proc/self/oom_score_adj", O_WRONLY);
	if (adj >= 0) {
		if (write(adj, "1000", 4) < 0) { /* an unchanged score only makes the server a candidate too */ }
		close(adj);
	}
	signal(SIGPIPE, SIG_DFL);
	signal(SIGXFSZ, SIG_DFL);
	execve(argv[0], argv, environ);
	_exit(127);
}

/* Keeps the first CHECKD_STDERR_KEPT bytes; reads the rest into a scratch buffer and drops it. 0 at end of file. */
static ssize_t read_stderr(int fd, char *kept, uint64_t *len)
{
	static char scratch[1 << 14];
	char *into = *len < CHECKD_STDERR_KEPT ? kept + *len : scratch;
	size_t room = *len < CHECKD_STDERR_KEPT ? CHECKD_STDERR_KEPT - *len : sizeof scratch;
	ssize_t r = read(fd, into, room);
	if (r > 0 && into != scratch)
		*len += (uint64_t)r;
	return r < 0 && (errno == EINTR || errno == EAGAIN) ? 1 : r;
}

static uint64_t cpu_usec_of(clockid_t clock)
{
	struct timespec ts;
	if (clock_gettime(clock, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Waits for the checker's end, its stderr read meanwhile; kills it at its wall (from `start`, its
 * fork) or CPU limit, its children's CPU time counted with its own. */
static int supervise(pid_t pid, int pidfd, int err_r, uint64_t start, const struct checkd_limits *limits, struct checkd_report *report, char *kept)
{
	uint64_t wall_end = start + limits->wall_ms * 1000u, cpu_limit = limits->cpu_ms * 1000u;
	clockid_t clock;
	int have_clock = clock_getcpuclockid(pid, &clock) == 0;
	struct pollfd fds[2] = {{pidfd, POLLIN, 0}, {err_r, POLLIN, 0}};
	for (;;) {
		/* The checker's own clock, or its whole tree's ticks (tree_cpu.c) once those are more. */
		uint64_t now = now_usec(), used = have_clock ? cpu_usec_of(clock) : 0, tree = checkd_tree_cpu_usec();
		if (tree > used)
			used = tree;
		report->cpu_usec = used;
		if (!(report->flags & CHECKD_KILLED) && (now >= wall_end || used >= cpu_limit)) {
			report->flags |= CHECKD_KILLED | (now >= wall_end ? CHECKD_WALL_TIMEOUT : CHECKD_CPU_TIMEOUT);
			kill(pid, SIGKILL);
		}
		uint64_t wait_ms = (wall_end > now ? wall_end - now : 0) / 1000u + 1;
		uint64_t cpu_ms = (cpu_limit > used ? cpu_limit - used : 0) / 1000u / 2 + 1;
		if (cpu_ms < wait_ms)
			wait_ms = cpu_ms;
		if (wait_ms > CPU_POLL_MAX_MS)
			wait_ms = CPU_POLL_MAX_MS;
		int n = poll(fds, fds[1].fd >= 0 ? 2 : 1, (int)wait_ms);
		if (n < 0 && errno != EINTR)
			return -1;
		if (n > 0 && fds[1].fd >= 0 && (fds[1].revents & (POLLIN | POLLHUP)) && read_stderr(err_r, kept, &report->stderr_len) <= 0)
			fds[1].fd = -1;
		if (n > 0 && (fds[0].revents & POLLIN))
			break;
	}
	report->wall_usec = now_usec() - start;
	return 0;
}

/* How the checker ended (its exit status from wait4 or from the warm checker), its CPU time and peak memory. */
static int reap(pid_t pid, const struct checkd_limits *limits, struct checkd_report *report)
{
	int status;
	uint64_t cpu_usec, maxrss_kib;
	if (checkd_warm_pid() >= 0) {
		if (checkd_warm_ended(&status, &cpu_usec, &maxrss_kib) < 0)
			return -1;
	} else {
		struct rusage ru;
		pid_t r;
		while ((r = wait4(pid, &status, 0, &ru)) < 0 && errno == EINTR) {}
		if (r != pid)
			return -1;
		cpu_usec = (uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec;
		maxrss_kib = (uint64_t)ru.ru_maxrss;
	}
	if (cpu_usec > report->cpu_usec) /* else its children's, read while it ran, were more */
		report->cpu_usec = cpu_usec;
	report->maxrss_bytes = maxrss_kib * 1024u;
	report->kind = WIFSIGNALED(status) ? CHECKD_SIGNALED : CHECKD_EXITED;
	report->value = WIFSIGNALED(status) ? (uint64_t)WTERMSIG(status) : (uint64_t)WEXITSTATUS(status);
	if (report->cpu_usec >= limits->cpu_ms * 1000u || (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU))
		report->flags |= CHECKD_CPU_TIMEOUT;
	return 0;
}

/* What a leftover process still writes into the checker's stderr is not waited for. */
static void drain_left(int err_r, char *kept, struct checkd_report *report)
{
	fcntl(err_r, F_SETFL, O_NONBLOCK);
	for (int i = 0; i < 64; i++) {
		ssize_t r = read(err_r, kept + report->stderr_len, report->stderr_len < CHECKD_STDERR_KEPT ? CHECKD_STDERR_KEPT - report->stderr_len : 0);
		if (r <= 0 || report->stderr_len >= CHECKD_STDERR_KEPT)
			break;
		report->stderr_len += (uint64_t)r;
	}
}

int checkd_run(char **argv, const struct checkd_limits *limits, struct checkd_report *report, char *stderr_buf)
{
	memset(report, 0, sizeof *report);
	report->magic = CHECKD_MAGIC;
	int err[2];
	if (pipe2(err, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = -1;
	uint64_t start = now_usec();
	if (checkd_warm_pid() >= 0) {
		if (checkd_warm_fork(cpu_backstop_secs(limits), err[1], &pid) < 0)
			return -1;
	} else if ((pid = fork()) == 0) {
		child(argv, limits, err[1]);
	}
	close(err[1]);
	if (pid < 0)
		return -1;
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	/* A warm checker's check may have ended, and been reaped, before its pidfd was opened. */
	int gone = pidfd < 0 && errno == ESRCH && checkd_warm_pid() >= 0;
	int ok = gone || (pidfd >= 0 && supervise(pid, pidfd, err[0], start, limits, report, stderr_buf) == 0);
	if (gone)
		report->wall_usec = now_usec() - start;
	if (!ok)
		kill(pid, SIGKILL);
	ok = reap(pid, limits, report) == 0 && ok;
	if (ok)
		drain_left(err[0], stderr_buf, report);
	close(err[0]);
	if (pidfd >= 0)
		close(pidfd);
	return ok ? 0 : -1;
}
