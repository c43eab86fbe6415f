/* A run's child, in the zygote's forks (zygote.c, spares.c): its fds 0-4 wired for one request
 * (connected to the supervisor's socket under the request's nonce, or a spare's connections made
 * ahead), its stdin made, and then the run's launcher (run.c). Also the pipes of an interactive
 * pair, which the zygote makes at run a's request and keeps until it has forked run b. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "child.h"
#include "copyfd.h"
#include "run.h"
#include "status.h"

#define PAIR_A "|pair-a"
#define PAIR_B "|pair-b"
#define STREAM "|stream"

/* The pipes of an interactive pair: a_to_b[1] and b_to_a[0] go to run a, the other ends wait in
 * the zygote for run b's request. -1 when unused. */
static int a_to_b[2] = {-1, -1}, b_to_a[2] = {-1, -1};

void close_pair(void)
{
	for (int i = 0; i < 2; i++) {
		if (a_to_b[i] >= 0)
			close(a_to_b[i]);
		if (b_to_a[i] >= 0)
			close(b_to_a[i]);
		a_to_b[i] = b_to_a[i] = -1;
	}
}

int read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	while (got < len) {
		ssize_t r = read(fd, (char *)buf + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* Moves a new fd above 0-4, so wiring the run's fds cannot clobber it (0 is still the request pipe). */
int high(int fd)
{
	if (fd < 0)
		return -1;
	int moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	close(fd);
	return moved;
}

int connect_stream(const char *path, const char *nonce, const char *kind)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof addr.sun_path)
		return -1;
	strcpy(addr.sun_path, path);
	int fd = high(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
	if (fd < 0)
		return -1;
	char header[NONCE_LEN + 6];
	memcpy(header, nonce, NONCE_LEN);
	header[NONCE_LEN] = ' ';
	memcpy(header + NONCE_LEN + 1, kind, 3);
	header[NONCE_LEN + 4] = '\n';
	if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0 || write_full(fd, header, NONCE_LEN + 5) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The program's stdin: a sealed memfd holding a copy of the staged file (empty without one), so
 * readlink, fstat and fstatfs on fd 0 show "memfd:stdin" on tmpfs, never a host path or disk. */
static int stdin_memfd(const char *path)
{
	int mem = memfd_create("stdin", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (mem < 0)
		return -1;
	if (path[0]) {
		int in = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (in < 0) {
			close(mem);
			return -1;
		}
		ssize_t n;
		while ((n = sendfile(mem, in, NULL, 1 << 20)) > 0 || (n < 0 && errno == EINTR))
			;
		close(in);
		if (n < 0 || lseek(mem, 0, SEEK_SET) < 0) {
			close(mem);
			return -1;
		}
	}
	if (fcntl(mem, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) < 0) {
		close(mem);
		return -1;
	}
	return mem;
}

/* Copies fd onto target without close-on-exec (the launcher hands 0-4 on). */
static int place(int fd, int target)
{
	return dup2(fd, target) < 0 ? -1 : 0;
}

/* After the run's last status line: the supervisor reads the lines at its own pace (its event loop
 * may be stalled for seconds) and may still write a kill byte on the same connection after "done"
 * (its wall timer fired while the end of the run was waiting, unread, in the socket). Had the
 * launcher exited, that write would fail (EPIPE) and take the unread lines with it: the supervisor
 * would see a run without its full report. So the launcher half-closes the connection (the
 * supervisor reads EOF after "done") and keeps it until the supervisor closes its end, reading and
 * ignoring whatever it still writes. The supervisor closes its end when it reads that EOF. */
static void linger(void)
{
	syscall(SYS_close_range, 0, 2, 0); /* the output connections end now, as they would at exit */
	if (shutdown(STATUS_FD, SHUT_WR) < 0)
		return;
	char buf[64];
	ssize_t r;
	while ((r = read(CONTROL_FD, buf, sizeof buf)) > 0 || (r < 0 && errno == EINTR))
		;
}

/* In the forked child: wire fds 0-4 for one run, then become that run's launcher. CONNECTED: a
 * spare's out, err and ctl connections, made before its request came; NULL: connected now, under
 * the request's nonce. */
int child_run(const char *socket_path, char *request, size_t len, const int *connected, char *args_start, char *args_end)
{
	signal(SIGCHLD, SIG_DFL);
	setsid(); /* out of the node's session and process group */
	pid_t zygote = getppid();
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != zygote)
		return 1;

	/* Split NONCE, STDIN_PATH and the arguments at their NULs. */
	size_t count = 0;
	for (size_t i = 0; i < len; i++)
		count += request[i] == '\0';
	if (len == 0 || request[len - 1] != '\0' || count < 3 || strlen(request) != NONCE_LEN)
		return 1;
	char **fields = calloc(count + 1, sizeof *fields);
	if (!fields)
		return 1;
	size_t n = 0;
	for (char *p = request; p < request + len; p += strlen(p) + 1)
		fields[n++] = p;
	const char *nonce = fields[0];
	const char *stdin_path = fields[1];

	int out = connected ? connected[0] : connect_stream(socket_path, nonce, "out");
	int err = connected ? connected[1] : out < 0 ? -1 : connect_stream(socket_path, nonce, "err");
	int ctl = connected ? connected[2] : err < 0 ? -1 : connect_stream(socket_path, nonce, "ctl");
	if (ctl < 0)
		return 1; /* the supervisor sees the missing connections and reports it */
	int in, to_peer = -1;
	if (!strcmp(stdin_path, PAIR_A) || !strcmp(stdin_path, PAIR_B)) {
		int a = !strcmp(stdin_path, PAIR_A);
		in = a ? b_to_a[0] : a_to_b[0];
		to_peer = a ? a_to_b[1] : b_to_a[1];
		close(out); /* the supervisor reads an empty stdout: it goes to the peer */
		out = to_peer;
	} else if (!strcmp(stdin_path, STREAM)) {
		/* A live stdin: a fourth connection the supervisor writes to; the program cannot write back. */
		in = connect_stream(socket_path, nonce, "in ");
		if (in >= 0 && shutdown(in, SHUT_WR) < 0) {
			close(in);
			in = -1;
		}
	} else {
		in = high(stdin_memfd(stdin_path));
	}
	if (in < 0 || out < 0 || place(in, STDIN_FILENO) < 0 || place(out, STDOUT_FILENO) < 0 || place(err, STDERR_FILENO) < 0 ||
	    place(ctl, STATUS_FD) < 0 || place(ctl, CONTROL_FD) < 0)
		return 1;
	/* argv[0] for the launcher, then the request's arguments. */
	fields[1] = (char *)"codecell-launcher";
	int status = launcher_main((int)(count - 1), &fields[1], args_start, args_end);
	linger();
	return status;
}

static int open_pair(void)
{
	if (pipe2(a_to_b, O_CLOEXEC) < 0 || pipe2(b_to_a, O_CLOEXEC) < 0)
		return -1;
	for (int i = 0; i < 2; i++)
		if ((a_to_b[i] = high(a_to_b[i])) < 0 || (b_to_a[i] = high(b_to_a[i])) < 0)
			return -1;
	return 0;
}

/* 'a' or 'b' for the runs of an interactive pair, 0 otherwise (STDIN_PATH is the second field). */
int pair_role(const char *request, size_t len)
{
	size_t first = strnlen(request, len);
	if (first + 1 >= len)
		return 0;
	const char *stdin_path = request + first + 1;
	size_t rest = len - first - 1;
	if (strnlen(stdin_path, rest) == strlen(PAIR_A) && !memcmp(stdin_path, PAIR_A, strlen(PAIR_A)))
		return 'a';
	if (strnlen(stdin_path, rest) == strlen(PAIR_B) && !memcmp(stdin_path, PAIR_B, strlen(PAIR_B)))
		return 'b';
	return 0;
}

void pair_before_fork(int role)
{
	if (role != 'a')
		return;
	close_pair(); /* an earlier pair whose b never came */
	if (open_pair() < 0)
		close_pair(); /* the child finds no pipes and fails; the supervisor reports it */
}

void pair_after_fork(int role)
{
	if (role == 'a') {
		close(a_to_b[1]);
		close(b_to_a[0]);
		a_to_b[1] = b_to_a[0] = -1;
	} else if (role == 'b') {
		close_pair();
	}
}
