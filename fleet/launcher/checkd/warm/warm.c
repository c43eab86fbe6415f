/* The check server's warm start (docs/sandbox.md, "Check server"): preloaded into a dynamically
 * linked checker, it stops the checker in its constructors, once its libraries are loaded and
 * relocated, and forks it once per check on the server's request; each child goes on into the
 * checker's main. Inert unless its fd is the server's socket. No libc: raw system calls only,
 * so it loads into any x86-64 dynamic program. Messages on the socket (fixed sizes):
 *   hello, to the server: u64 pid
 *   fork, from the server: u64 RLIMIT_CPU seconds, with the check's stderr as SCM_RIGHTS
 *   forked, to the server: i64 child pid (or -errno)
 *   ended, to the server: u64 wait status, u64 CPU µs, u64 peak RSS KiB */
#include <sys/resource.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <sys/prctl.h>

#include "../warm.h"

extern char **environ __attribute__((weak));

static long sys6(long n, long a, long b, long c, long d, long e, long f)
{
	long ret;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9) : "rcx", "r11", "memory");
	return ret;
}
#define SYS(n, a, b, c) sys6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)

static int whole(long n, int fd, void *buf, long len)
{
	char *p = buf;
	while (len > 0) {
		long r = SYS(n, fd, p, len);
		if (r == -4) /* EINTR */
			continue;
		if (r <= 0)
			return -1;
		p += r;
		len -= r;
	}
	return 0;
}

/* The fork request: its limit, and the check's stderr. */
static int receive(uint64_t *cpu_secs, int *err_fd)
{
	char control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {cpu_secs, sizeof *cpu_secs};
	struct msghdr msg = {0};
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = control;
	msg.msg_controllen = sizeof control;
	long r = sys6(SYS_recvmsg, WARM_FD, (long)&msg, MSG_CMSG_CLOEXEC, 0, 0, 0);
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	if (r != (long)sizeof *cpu_secs || !c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	__builtin_memcpy(err_fd, CMSG_DATA(c), sizeof(int));
	return 0;
}

/* LD_PRELOAD leaves the checker's environment: the check sees the environment a fresh run has. */
static void forget_preload(void)
{
	if (!&environ || !environ)
		return;
	char **out = environ;
	for (char **e = environ; *e; e++) {
		const char *s = *e, *k = "LD_PRELOAD=";
		while (*k && *s == *k)
			s++, k++;
		if (*k)
			*out++ = *e;
	}
	*out = 0;
}

/* The check's child: stderr the pipe, its CPU backstop, the OOM killer's first choice; then on into main. */
static void become_check(uint64_t cpu_secs, int err_fd)
{
	SYS(SYS_close, WARM_FD, 0, 0);
	SYS(SYS_prctl, PR_SET_DUMPABLE, 1, 0);
	SYS(SYS_dup2, err_fd, 2, 0);
	SYS(SYS_close, err_fd, 0, 0);
	struct rlimit cpu = {cpu_secs, cpu_secs};
	SYS(SYS_setrlimit, RLIMIT_CPU, &cpu, 0);
	long adj = SYS(SYS_open, "/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC, 0);
	if (adj >= 0) {
		SYS(SYS_write, adj, "1000", 4);
		SYS(SYS_close, adj, 0, 0);
	}
	forget_preload();
}

__attribute__((constructor)) static void warm(void)
{
	struct stat st;
	if (SYS(SYS_fstat, WARM_FD, &st, 0) < 0 || !S_ISSOCK(st.st_mode))
		return;
	uint64_t pid = (uint64_t)SYS(SYS_getpid, 0, 0, 0);
	if (whole(SYS_write, WARM_FD, &pid, sizeof pid) < 0)
		SYS(SYS_exit_group, 2, 0, 0);
	/* A check (the same uid) cannot open this process's socket through /proc or ptrace it. */
	SYS(SYS_prctl, PR_SET_DUMPABLE, 0, 0);
	long null = SYS(SYS_open, "/dev/null", O_WRONLY | O_CLOEXEC, 0);
	if (null >= 0)
		SYS(SYS_dup2, null, 2, 0);
	for (;;) {
		uint64_t cpu_secs;
		int err_fd = -1;
		if (receive(&cpu_secs, &err_fd) < 0)
			SYS(SYS_exit_group, 0, 0, 0);
		long child = SYS(SYS_fork, 0, 0, 0);
		if (child == 0)
			return become_check(cpu_secs, err_fd);
		SYS(SYS_close, err_fd, 0, 0);
		int64_t forked = child;
		if (whole(SYS_write, WARM_FD, &forked, sizeof forked) < 0 || child < 0)
			SYS(SYS_exit_group, 2, 0, 0);
		int status = 0;
		struct rusage ru;
		long r;
		while ((r = sys6(SYS_wait4, child, (long)&status, 0, (long)&ru, 0, 0)) == -4) {}
		if (r != child)
			SYS(SYS_exit_group, 2, 0, 0);
		uint64_t ended[3] = {(uint64_t)status,
				     (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000u + (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec),
				     (uint64_t)ru.ru_maxrss};
		if (whole(SYS_write, WARM_FD, ended, sizeof ended) < 0)
			SYS(SYS_exit_group, 2, 0, 0);
	}
}
