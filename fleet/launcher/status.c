/* Status lines on fd 3. Lines are buffered and written in as few write()s as
 * possible; a write never exceeds PIPE_BUF and never splits a line, so every
 * line reaches the supervisor atomically. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "status.h"

#define MAX_LINE 512

struct failure g_failure;

static const char *const control_names[CTL__COUNT] = {
	[CTL_PID_NAMESPACE] = "pid_namespace",
	[CTL_MOUNT_NAMESPACE] = "mount_namespace",
	[CTL_NETWORK_NAMESPACE] = "network_namespace",
	[CTL_IPC_NAMESPACE] = "ipc_namespace",
	[CTL_UTS_NAMESPACE] = "uts_namespace",
	[CTL_CGROUP] = "cgroup",
	[CTL_ROOT_FILESYSTEM] = "root_filesystem",
	[CTL_PROC] = "proc",
	[CTL_DEV] = "dev",
	[CTL_WORK_DIR] = "work_dir",
	[CTL_TMP] = "tmp",
	[CTL_RLIMITS] = "rlimits",
	[CTL_UID_GID] = "uid_gid",
	[CTL_CAPABILITIES] = "capabilities",
	[CTL_NO_NEW_PRIVILEGES] = "no_new_privileges",
	[CTL_SECCOMP] = "seccomp",
	[CTL_ENVIRONMENT] = "environment",
	[CTL_EXEC] = "exec",
	[CTL_OUTPUT_DRAIN] = "output_drain",
	[CTL_SESSION] = "session",
	[CTL_CGROUP_NAMESPACE] = "cgroup_namespace",
	[CTL_TIME_NAMESPACE] = "time_namespace",
	[CTL_PROC_MASKS] = "proc_masks",
	[CTL_BOX_FILES] = "box_files",
};

static char buf[PIPE_BUF];
static size_t used;

const char *control_name(int control)
{
	if (control < 0 || control >= CTL__COUNT)
		return "exec";
	return control_names[control];
}

void status_flush(void)
{
	size_t off = 0;
	while (off < used) {
		ssize_t n = write(STATUS_FD, buf + off, used - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* supervisor gone (EPIPE): nothing left to tell */
		off += (size_t)n;
	}
	used = 0;
}

/* Printable ASCII only, no newline: a line can never be forged or split. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = '?';
}

void status_line(const char *fmt, ...)
{
	char line[MAX_LINE];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof line - 2)
		n = sizeof line - 2;
	line[n] = '\0';
	sanitize(line);
	line[n++] = '\n';
	if (used + (size_t)n > sizeof buf)
		status_flush();
	memcpy(buf + used, line, (size_t)n);
	used += (size_t)n;
}

void status_applied(enum control control)
{
	status_line("applied %s", control_name(control));
}

void status_fail(const struct failure *f)
{
	char msg[sizeof f->msg];
	memcpy(msg, f->msg, sizeof msg);
	msg[sizeof msg - 1] = '\0';
	status_line("fail %s %d %s", control_name(f->control), f->err, msg);
}

int fail(enum control control, int err, const char *fmt, ...)
{
	char what[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	g_failure.control = control;
	g_failure.err = err;
	if (err)
		snprintf(g_failure.msg, sizeof g_failure.msg, "%s: %s", what, strerror(err));
	else
		snprintf(g_failure.msg, sizeof g_failure.msg, "%s", what);
	return -1;
}
