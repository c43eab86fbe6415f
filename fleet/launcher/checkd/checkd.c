/* The check server (docs/sandbox.md, "Check server"; fleet/src/judge/programs/check-server.ts): the
 * sandboxed program of a submission's checker session. It runs the prepared checker once per
 * request read on its stdin and answers each on its stdout; any failure of its own ends it, and
 * the node runs the checks left in fresh sandboxes.
 *   codecell-checkd CPU_MS WALL_MS -- CHECKER [ARG...]
 * A request is three files, each a little-endian u64 length then its bytes: input.txt,
 * output.txt, answer.txt, written fresh into the work dir. End of stdin ends the server. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "checkd.h"
#include "cleanup.h"
#include "io.h"
#include "ipc.h"
#include "run.h"
#include "warm_client.h"

static const char *const io_files[] = {"input.txt", "output.txt", "answer.txt"};

static int write_all(int fd, const void *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf = (const char *)buf + w;
		n -= (size_t)w;
	}
	return 0;
}

/* One file of a request, from stdin into a new file of the work dir. */
static int receive_file(const char *name, int first)
{
	uint64_t size;
	int r = read_exact(0, &size, sizeof size);
	if (r != 0)
		return (r == 1 && first) ? 1 : -1;
	int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	static char buf[1 << 16];
	while (size > 0) {
		size_t chunk = size < sizeof buf ? (size_t)size : sizeof buf;
		if (read_exact(0, buf, chunk) != 0 || write_all(fd, buf, chunk) < 0) {
			close(fd);
			return -1;
		}
		size -= chunk;
	}
	return close(fd);
}

/* 0: a request is in place; 1: stdin ended; -1: broken. */
static int receive_request(void)
{
	for (int i = 0; i < 3; i++) {
		int r = receive_file(io_files[i], i == 0);
		if (r != 0)
			return r;
	}
	return 0;
}

static int parse_ms(const char *text, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	if (errno || end == text || *end || v == 0)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	struct checkd_limits limits;
	if (argc < 5 || parse_ms(argv[1], &limits.cpu_ms) || parse_ms(argv[2], &limits.wall_ms) || strcmp(argv[3], "--"))
		return 2;
	/* Orphans of a check come to this process, so it can reap every one; the checker may not ptrace it. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0 || prctl(PR_SET_DUMPABLE, 0) < 0)
		return 2;
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	if (checkd_refuse_mqueues() < 0 || checkd_snapshot_box() < 0 || checkd_warm_start(argv + 4, &limits) < 0 || checkd_kill_leftovers() < 0 ||
	    checkd_clean_files() < 0 || checkd_clean_ipc() < 0)
		return 2;
	static char stderr_buf[CHECKD_STDERR_KEPT];
	for (;;) {
		int r = receive_request();
		if (r == 1)
			return 0;
		struct checkd_report report;
		if (r < 0 || checkd_run(argv + 4, &limits, &report, stderr_buf) < 0)
			return 3;
		/* Nothing of this check is left when its report goes out: a failed clean-up sends none. */
		if (checkd_kill_leftovers() < 0 || checkd_clean_files() < 0 || checkd_clean_ipc() < 0)
			return 4;
		if (write_all(1, &report, sizeof report) < 0 || write_all(1, stderr_buf, report.stderr_len) < 0)
			return 5;
	}
}
