/* The live stdin relay: a stdin that is a socket (a live run's "in" connection to the node, which
 * getpeername would name by its host path) never reaches the program. Before clone the launcher
 * makes fd 0 a pipe and keeps the socket; while it supervises init it copies what the socket
 * brings into the pipe, at the pace the program reads (one buffer at a time: the socket is read
 * only once the pipe took the last buffer), and the socket's end becomes the pipe's end. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "relay.h"
#include "status.h"

#define RELAY_CHUNK 65536

static struct {
	int sock;   /* the node's connection; -1 without a relay or at its end */
	int pipe_w; /* the program's stdin pipe, write end; -1 once closed */
	size_t len, off; /* the buffer's bytes not yet in the pipe: off..len */
	char buf[RELAY_CHUNK];
} r = {.sock = -1, .pipe_w = -1};

/* Before clone: a socket on fd 0 moves up, and fd 0 becomes the read end of a pipe. */
int relay_prepare(void)
{
	struct stat st;
	if (fstat(STDIN_FILENO, &st) < 0 || !S_ISSOCK(st.st_mode))
		return 0; /* a memfd, a pipe or nothing: the program's as it is */
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return fail(CTL_EXEC, errno, "pipe for the live stdin");
	r.sock = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 10);
	r.pipe_w = fcntl(p[1], F_DUPFD_CLOEXEC, 10);
	close(p[1]);
	if (r.sock < 0 || r.pipe_w < 0 || fcntl(r.sock, F_SETFL, O_NONBLOCK) < 0 || fcntl(r.pipe_w, F_SETFL, O_NONBLOCK) < 0 ||
	    dup2(p[0], STDIN_FILENO) < 0)
		return fail(CTL_EXEC, errno, "wire the live stdin pipe");
	close(p[0]);
	return 0;
}

static void relay_close(void)
{
	if (r.sock >= 0)
		close(r.sock);
	if (r.pipe_w >= 0)
		close(r.pipe_w);
	r.sock = r.pipe_w = -1;
}

/* In init, right after clone: its copies would hold the pipe open (the program would never see
 * its end of input) and the node's connection with it. */
void relay_forget(void)
{
	relay_close();
}

/* One slot: the pipe while a buffer waits for room in it, else the socket; fd -1 when done. */
void relay_pollfd(struct pollfd *p)
{
	if (r.pipe_w < 0)
		*p = (struct pollfd){.fd = -1};
	else if (r.len > r.off)
		*p = (struct pollfd){.fd = r.pipe_w, .events = POLLOUT};
	else
		*p = (struct pollfd){.fd = r.sock, .events = POLLIN};
}

static void relay_write(void)
{
	ssize_t n = write(r.pipe_w, r.buf + r.off, r.len - r.off);
	if (n > 0)
		r.off += (size_t)n;
	else if (n < 0 && errno != EINTR && errno != EAGAIN)
		relay_close(); /* the program closed its stdin (EPIPE): the rest is not wanted */
}

void relay_event(const struct pollfd *p)
{
	if (p->fd < 0 || !p->revents)
		return;
	if (p->fd == r.pipe_w) {
		relay_write();
		return;
	}
	ssize_t n = read(r.sock, r.buf, sizeof r.buf);
	if (n > 0) {
		r.len = (size_t)n;
		r.off = 0;
		relay_write(); /* most often the pipe has room at once */
	} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
		relay_close(); /* the node's end (all it sent is in the pipe): the program reads its end */
	}
}

/* At the end of the run. */
void relay_end(void)
{
	relay_close();
}
