/* The check server's side of the warm start (warm/warm.c): the checker is started once with the
 * preload; if it says hello it is forked for each check, else each check execs it. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "checkd.h"
#include "io.h"
#include "warm.h"
#include "warm_client.h"

extern char **environ;

static pid_t warm_pid = -1;
static int warm_sock = -1;

pid_t checkd_warm_pid(void)
{
	return warm_pid;
}

static void start_child(char **argv, int sock)
{
	int null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(sock, WARM_FD) < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
		_exit(126);
	if (setenv("LD_PRELOAD", WARM_PRELOAD, 1) < 0)
		_exit(126);
	execve(argv[0], argv, environ);
	_exit(127);
}

/* Waits (within the checker's wall limit) for the hello of the checker it started: its pid. */
static int hello(pid_t pid, int sock, const struct checkd_limits *limits)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return -1;
	struct pollfd fds[2] = {{sock, POLLIN, 0}, {pidfd, POLLIN, 0}};
	int n;
	while ((n = poll(fds, 2, (int)limits->wall_ms)) < 0 && errno == EINTR) {}
	close(pidfd);
	uint64_t said;
	if (n <= 0 || !(fds[0].revents & POLLIN) || read_exact(sock, &said, sizeof said) != 0 || said != (uint64_t)pid)
		return -1;
	return 0;
}

int checkd_warm_start(char **argv, const struct checkd_limits *limits)
{
	int sv[2];
	if (getenv("LD_PRELOAD") || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return 0; /* the checker's own preload wins: no warm start */
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		start_child(argv, sv[1]);
	close(sv[1]);
	if (hello(pid, sv[0], limits) == 0) {
		warm_pid = pid;
		warm_sock = sv[0];
		return 0;
	}
	/* A static checker (the preload ignored) ran as a check of no files: its end is not wanted. */
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
	close(sv[0]);
	return 0;
}

int checkd_warm_fork(uint64_t cpu_secs, int err_w, pid_t *pid)
{
	char control[CMSG_SPACE(sizeof(int))];
	memset(control, 0, sizeof control);
	struct iovec iov = {&cpu_secs, sizeof cpu_secs};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &err_w, sizeof(int));
	ssize_t sent;
	while ((sent = sendmsg(warm_sock, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR) {}
	int64_t forked;
	if (sent != (ssize_t)sizeof cpu_secs || read_exact(warm_sock, &forked, sizeof forked) != 0 || forked <= 0)
		return -1;
	*pid = (pid_t)forked;
	return 0;
}

int checkd_warm_ended(int *status, uint64_t *cpu_usec, uint64_t *maxrss_kib)
{
	uint64_t ended[3];
	if (read_exact(warm_sock, ended, sizeof ended) != 0)
		return -1;
	*status = (int)ended[0];
	*cpu_usec = ended[1];
	*maxrss_kib = ended[2];
	return 0;
}
