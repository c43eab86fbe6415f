/* The run's configuration: the command line into C (args.c), read by every step of a run and
 * filled in by init's as it goes. See PROTOCOL.md for the contract. */
#ifndef CODECELL_CONFIG_H
#define CODECELL_CONFIG_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

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

#endif
