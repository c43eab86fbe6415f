/* Signals the supervisor forwards to the program (a live session's Ctrl-C): control bytes 'i'
 * (SIGINT), 't' (SIGTERM) and 'K' (SIGKILL, to the program alone; 'k' kills the whole sandbox). The program is init's only child; the launcher, in the host's pid
 * namespace, finds it in init's children list, pins it with a pidfd and checks that the pinned
 * process is still init's child before it signals it, so a pid reused after the program's end is
 * never signalled. No program (it has ended or not yet started): nothing is sent. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "forward.h"
#include "proc_file.h"

static long read_number_after(const char *path, const char *key)
{
	char buf[4096];
	if (read_proc_file(path, buf, sizeof buf) <= 0)
		return -1;
	if (!key[0])
		return strtol(buf, NULL, 10);
	char *at = strstr(buf, key);
	return at ? strtol(at + strlen(key), NULL, 10) : -1;
}

static int program_pidfd(pid_t init)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task/%d/children", init, init);
	long pid = read_number_after(path, "");
	if (pid <= 0)
		return -1;
	int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
	if (pidfd < 0)
		return -1;
	snprintf(path, sizeof path, "/proc/%ld/status", pid);
	if (read_number_after(path, "\nPPid:") != init) { /* pinned too late: not the program any more */
		close(pidfd);
		return -1;
	}
	return pidfd;
}

void forward_signals(pid_t init, const char *bytes, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int sig = bytes[i] == 'i' ? SIGINT : bytes[i] == 't' ? SIGTERM : bytes[i] == 'K' ? SIGKILL : 0;
		if (!sig)
			continue;
		int pidfd = program_pidfd(init);
		if (pidfd >= 0) {
			syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
			close(pidfd);
		}
	}
}
