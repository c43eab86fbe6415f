/* --serve SOCKET: the launcher as a zygote. The supervisor spawns it once and writes run requests
 * on its stdin; for each request the zygote forks a child that connects back to the supervisor's
 * unix socket SOCKET three times (stdout, stderr, status+control), makes those connections its
 * fds 1, 2, 3 and 4, copies the request's stdin file into a sealed memfd as fd 0, and then runs exactly as a launcher
 * spawned with that command line would. Forking this small static process instead of spawning
 * from the supervisor's large one takes the biggest fixed cost off every run.
 *
 * Request frame on stdin: a 4-byte little-endian length, then that many bytes:
 *   NONCE \0 STDIN_PATH \0 ARG \0 ARG \0 ...      (STDIN_PATH empty: an empty stdin)
 * Each connection starts with the line "NONCE out\n", "NONCE err\n" or "NONCE ctl\n".
 *
 * An interactive pair: STDIN_PATH "|pair-a" then, in the next frame, "|pair-b". The zygote joins
 * the two runs by two pipes: a's stdout is b's stdin and b's stdout is a's stdin (their "out"
 * connections are closed unused; the supervisor passes --stdout-inherit 1).
 *
 * A live stdin: STDIN_PATH "|stream". The child connects a fourth time ("NONCE in \n"), shuts its
 * writing side and makes that connection fd 0: what the supervisor writes is the program's stdin.
 *
 * Spare children (spares.c): a fork and the new process's first turn on a CPU take about a
 * millisecond on a small VM, so the zygote forks runs' children ahead of time: two for each CPU
 * set the requests name, each waiting on those CPUs, already connected to the supervisor, for a
 * request the supervisor writes to it directly. A request that reaches the zygote (no spare was
 * waiting, or a pair's) is forked for at once, and its CPU set gets its spares. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "child.h"
#include "housekeeping.h"
#include "kept.h"
#include "privileges.h"
#include "procfs.h"
#include "spares.h"
#include "zygote.h"

int zygote_main(const char *socket_path, char *args_start, char *args_end)
{
	pid_t parent = getppid();
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
		return 1;
	signal(SIGCHLD, SIG_IGN); /* children are reaped by the kernel */
	housekeeping_avoid();
	procfs_prepare();
	privileges_empty_bounding_set_early();
	for (;;) {
		struct pollfd p[1 + SPARES_POLLED] = {{.fd = STDIN_FILENO, .events = POLLIN}};
		size_t polled = spares_refill(&p[1], socket_path, args_start, args_end);
		if (poll(p, 1 + polled, -1) < 0 && errno != EINTR)
			return 1;
		spares_events(&p[1]);
		if (!p[0].revents)
			continue;
		uint32_t len;
		if (read_full(STDIN_FILENO, &len, sizeof len) < 0)
			return 0; /* the supervisor closed the channel: done */
		if (len == 0 || len > MAX_REQUEST)
			return 1;
		char *request = malloc(len);
		if (!request || read_full(STDIN_FILENO, request, len) < 0)
			return 1;
		kept_from_request(request, len); /* before the fork: this child and every later one inherit them */
		int pair = pair_role(request, len);
		if (!pair)
			spares_want(request, len); /* the next ones of its CPUs go to a spare */
		pair_before_fork(pair);
		pid_t pid = fork();
		if (pid == 0)
			_exit(child_run(socket_path, request, len, NULL, args_start, args_end));
		free(request);
		pair_after_fork(pair);
	}
}
