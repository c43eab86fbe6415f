/* codecell-launcher: shared declarations. See PROTOCOL.md for the contract. */
#ifndef CODECELL_LAUNCHER_H
#define CODECELL_LAUNCHER_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#ifndef CLONE_PIDFD /* fork-like clones that return a pidfd of the child (run.c, zygote.c) */
#define CLONE_PIDFD 0x00001000
#endif

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

struct bind_ro {
	const char *host;
	const char *path; /* absolute path inside the sandbox */
	int tree_fd;      /* detached read-only clone of the host tree (init); for a copy, the host file */
	int is_dir;
	int copy;   /* --file-ro: a small file copied into the root, so no mount names its host path */
	int hidden; /* --bind-hidden: mounted so that no mount names its host path (mounts.c) */
};

struct symlink_ent {
	const char *target;
	const char *path;
};

struct copy_in {
	const char *host;
	const char *name;
	mode_t mode;
	int fd; /* host file, opened by init before the root is assembled */
};

struct bind_in {
	const char *host;
	const char *name;
	int tree_fd;
	int is_dir;
};

struct copy_out {
	const char *name;
	const char *host;
	uint64_t max;
	int fd; /* host file, created by the launcher before clone */
};

struct rlimit_ent {
	int resource;
	rlim_t value;
};

struct config {
	uid_t uid;
	gid_t gid;
	const char *hostname;
	const char *netns_path;
	int netns_fd; /* -1: a new network namespace is created by clone */

	const char **cgroup_paths;
	int *cgroup_fds;
	size_t n_cgroups;
	const char **init_return_paths; /* --init-return-procs: init leaves the run's cgroups at its end */
	int *init_return_fds;
	size_t n_init_returns;
	uint64_t memory_limit; /* --memory-limit: the run's, shown as MemTotal in /proc/meminfo */
	cpu_set_t cpus;        /* --cpus: the run's CPUs (its cpuset), taken by the launcher before clone */
	int has_cpus;

	struct bind_ro *binds;
	size_t n_binds;
	struct symlink_ent *symlinks;
	size_t n_symlinks;
	uint64_t box_size;
	uint64_t tmp_size;
	struct copy_in *copy_ins;
	size_t n_copy_ins;
	struct bind_in *bind_ins;
	size_t n_bind_ins;
	struct copy_out *copy_outs;
	size_t n_copy_outs;
	struct rlimit_ent *rlimits;
	size_t n_rlimits;

	char **envp; /* NULL-terminated, exactly the --env entries */
	size_t n_env;
	const char *cwd;
	char **argv; /* NULL-terminated */

	uint64_t output_cap;           /* --output-cap: bytes forwarded per stream */
	int has_output_cap;            /* without it the program writes to fds 1/2 directly */
	int merge_stderr;              /* --merge-stderr 1: the program's stderr is its stdout pipe */
	int stdout_inherit;            /* --stdout-inherit 1: fd 1 as given (a pipe to an interactor) is not drained */
	const char **drainer_cgroup_paths;
	size_t n_drainer_cgroups;
	const char **drainer_return_paths; /* --drainer-return-procs: rejoined before "done" */
	size_t n_drainer_returns;
	int launcher_pidfd; /* lets init notice a launcher that died before PDEATHSIG */
	int init_end_fd;    /* init closes it once its report is written: the launcher need not wait for its exit */
	char *args_start;   /* the launcher's argv strings, wiped by init before the */
	char *args_end;     /* program starts: /proc/1/cmdline is world-readable */

	/* init-side state */
	int root_fd; /* O_PATH of the new root while it is assembled */
	int box_fd;  /* O_PATH|O_DIRECTORY of /box, kept for copy-outs */
	int tmp_fd;  /* O_PATH|O_DIRECTORY of /tmp, kept for the fsize walk */
	int masks_fd; /* O_PATH of the /proc masks' tmpfs, under the staged root until they are bound */
};

/* fsize.c */
int fsize_watch_install(const struct config *c);
unsigned fsize_watch_serve(int fd);

/* status.c */
extern struct failure g_failure;
const char *control_name(int control);
int fail(enum control control, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void status_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void status_applied(enum control control);
void status_fail(const struct failure *f);
void status_flush(void);

/* namespaces.c (init) */
int ns_check_pid(struct config *c);
int ns_mount_private(struct config *c);
int ns_join_net(struct config *c);
int ns_ipc(struct config *c);
int ns_uts(struct config *c);
int ns_time(struct config *c);

/* procfs.c (init) */
int procfs_masks_mount(struct config *c);
int procfs_mount(struct config *c);
int procfs_mask(struct config *c);
void procfs_prepare(void); /* the zygote, once: what the masks take from the kernel */

/* sources.c, rootfs.c, devfs.c, mounts.c (init): the new root, in rootfs.c's order */
int sources_open(struct config *c);
int rootfs_stage(struct config *c);
int rootfs_box(struct config *c);
int rootfs_tmp(struct config *c);
int devfs_mount(struct config *c);
int mounts_fill_box(struct config *c);
int mounts_binds(struct config *c);
int mounts_symlinks(struct config *c);
int rootfs_pivot(struct config *c);
int rootfs_seal(struct config *c);

/* args.c: the command line into C (zeroed); 0, or -1 with the failure set */
int parse_args(int argc, char **argv, struct config *c);

/* paths.c */
int valid_name(const char *name);
/* Deepest relative path a --copy-in may name inside /box. */
#define MAX_BOX_DEPTH 8
int valid_box_path(const char *path);
int valid_sandbox_path(const char *path);

/* copyfd.c */
int copy_fd(int in, int out, uint64_t len, uint64_t *copied);

/* cgroups.c (program child; init's own join and return) */
int cgroups_join(const struct config *c);
int cgroups_join_init(struct config *c);
void cgroups_leave_init(const struct config *c);

/* rlimits.c (program child) */
int rlimit_resource(const char *name);
int rlimits_apply(const struct config *c);
rlim_t rlimits_fsize(const struct config *c); /* RLIM_INFINITY when not given */

/* privileges.c (program child) */
/* The zygote's: its bounding set emptied once for every run it forks (failing, each run's own). */
void privileges_empty_bounding_set_early(void);
int privileges_drop_caps_bounding(void);
int privileges_set_ids(const struct config *c);
int privileges_clear_caps(void);
int privileges_no_new_privs(void);

/* seccomp.c (program child) */
int seccomp_install(void);

/* zygote.c: write all of buf (retrying EINTR and short writes); 0 or -1 */
int write_full(int fd, const char *buf, size_t len);
/* forward.c (launcher): control bytes 'i', 't', 'K' as SIGINT, SIGTERM, SIGKILL to the program */
void forward_signals(pid_t init, const char *bytes, size_t n);

/* drain.c (launcher): the output drainer, see the file's header */
struct pollfd;
int drain_prepare(struct config *c);
int drain_join(const struct config *c);
void drain_pollfds(struct pollfd *p); /* fills p[0], p[1] */
void drain_events(const struct pollfd *p);
void drain_report(void);
void drain_forget(void); /* init: its copies of the drainer's fds, closed */

/* relay.c (launcher): the live stdin relay, see the file's header */
int relay_prepare(void);
void relay_pollfd(struct pollfd *p);
void relay_event(const struct pollfd *p);
void relay_forget(void); /* init: its copies of the relay's fds, closed */
void relay_end(void);
/* init.c */
__attribute__((noreturn)) void init_main(struct config *c);

/* program.c (the program child, pid 2) */
__attribute__((noreturn)) void program_child(struct config *c, int exec_w, int go_r);
/* Reports the first N_OK program-side controls as applied (INT_MAX: all, the exec's too). */
void program_controls_applied(const struct config *c, int n_ok);

/* evidence.c, copyout.c (init, after the program) */
unsigned evidence_kill_leftovers(void); /* how many processes were left */
void evidence_report(const struct config *c, int st, const struct timespec *t_go, const struct timespec *t_end,
		     unsigned fsize_attempts, unsigned leftover);
void copyouts_run(const struct config *c);

/* main.c, zygote.c */
int launcher_main(int argc, char **argv, char *args_start, char *args_end);
/* run.c: in zygote mode, the write end of a pipe the zygote polls; closed once the run is over
 * ("done" written), so that the zygote forks the next spare then rather than at the launcher's
 * exit (after its mount namespace's teardown). -1 otherwise. */
extern int g_run_over_fd;
int zygote_main(const char *socket_path, char *args_start, char *args_end);

/* args.c: a kernel CPU list ("0-3,8") into SET; -1 when it is not one (LIST is cut up). */
int parse_cpu_list(char *list, cpu_set_t *set);

/* housekeeping.c: the zygote's --housekeeping-cpus (-1: not a CPU list); the zygote keeps off
 * them, a run's launcher moves there once "done" is written (nothing moves without them). */
int housekeeping_set(const char *list);
void housekeeping_move(void);
void housekeeping_avoid(void);

/* request.c: the value of the next argument NAME of a request frame (its fields after NONCE and
 * STDIN_PATH) after the value AFTER (NULL: the first), or NULL; only fields whose NUL is inside the
 * request count. */
const char *request_value(const char *request, size_t len, const char *name, const char *after);

/* kept.c: the node's own cgroup.procs files, opened once by the zygote for every run. */
#define KEPT_MAX 32
void kept_from_request(const char *request, size_t len); /* the zygote: keep what it names */
int kept_open(const char *path);                         /* a copy of the kept file, or opened now */
size_t kept_list(int *fds, size_t max);                  /* the kept fds, for the launcher's fd hygiene */
void kept_close_all(void);                               /* the launcher, before clone */

/* probe.c */
int probe_ia32(void);

#endif
