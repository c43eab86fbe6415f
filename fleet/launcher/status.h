/* Status lines on fd 3 and the first failure of a set-up pipeline (status.c), in the control
 * names of PROTOCOL.md. */
#ifndef CODECELL_STATUS_H
#define CODECELL_STATUS_H

/* The run's fds of PROTOCOL.md: status lines out, control bytes in. */
#define STATUS_FD 3
#define CONTROL_FD 4

/* Control names of PROTOCOL.md, in the order of control_names[] (status.c). */
enum control {
	CTL_PID_NAMESPACE,
	CTL_MOUNT_NAMESPACE,
	CTL_NETWORK_NAMESPACE,
	CTL_IPC_NAMESPACE,
	CTL_UTS_NAMESPACE,
	CTL_CGROUP,
	CTL_ROOT_FILESYSTEM,
	CTL_PROC,
	CTL_DEV,
	CTL_WORK_DIR,
	CTL_TMP,
	CTL_RLIMITS,
	CTL_UID_GID,
	CTL_CAPABILITIES,
	CTL_NO_NEW_PRIVILEGES,
	CTL_SECCOMP,
	CTL_ENVIRONMENT,
	CTL_EXEC,
	CTL_OUTPUT_DRAIN,
	CTL_SESSION,
	CTL_CGROUP_NAMESPACE,
	CTL_TIME_NAMESPACE,
	CTL_PROC_MASKS,
	/* Not an isolation control: placing a --copy-in file in /box (its directories, the file,
	 * its bytes). A failure here may be the files' own doing (no room, a name clash). */
	CTL_BOX_FILES,
	CTL__COUNT
};

/* The first failure of a set-up pipeline. The program child sends it to init
 * through the exec pipe in one write (it is smaller than PIPE_BUF). */
struct failure {
	int control;
	int err;
	int n_ok; /* program child only: program-side controls applied before it */
	char msg[200];
};

extern struct failure g_failure;
const char *control_name(int control);
int fail(enum control control, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void status_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void status_applied(enum control control);
void status_fail(const struct failure *f);
void status_flush(void);

#endif
