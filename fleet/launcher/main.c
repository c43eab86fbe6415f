/* codecell-launcher: argv -> config, host-side fds, clone into namespaces,
 * supervise init. See PROTOCOL.md. */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launcher.h"
#include "seccomp.h"

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef NSFS_MAGIC
#define NSFS_MAGIC 0x6e736673
#endif

#define DEFAULT_HOSTNAME "sandbox"
#define DEFAULT_TMPFS_SIZE (64ull << 20)

/* ---- parsing ---- */

static int parse_u64(const char *s, int base, uint64_t *out)
{
	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, base);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* Splits "A:B" at the last ':'; A keeps any ':' of its own. */
static int split_last(char *s, char **a, char **b)
{
	char *p = strrchr(s, ':');
	if (!p)
		return -1;
	*p = '\0';
	*a = s;
	*b = p + 1;
	return 0;
}

static int parse_id(const char *s, unsigned *out)
{
	uint64_t v;
	if (parse_u64(s, 10, &v) < 0 || v == 0 || v >= 0xffffffffu)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int parse_args(int argc, char **argv, struct config *c)
{
	size_t cap = (size_t)argc;
	int have_uid = 0, have_gid = 0;
	c->hostname = DEFAULT_HOSTNAME;
	c->netns_fd = -1;
	c->box_size = DEFAULT_TMPFS_SIZE;
	c->tmp_size = DEFAULT_TMPFS_SIZE;
	c->cwd = "/box";
	c->root_fd = c->box_fd = c->tmp_fd = -1;
	c->cgroup_paths = calloc(cap, sizeof *c->cgroup_paths);
	c->cgroup_fds = calloc(cap, sizeof *c->cgroup_fds);
	c->init_return_paths = calloc(cap, sizeof *c->init_return_paths);
	c->init_return_fds = calloc(cap, sizeof *c->init_return_fds);
	c->drainer_cgroup_paths = calloc(cap, sizeof *c->drainer_cgroup_paths);
	c->drainer_return_paths = calloc(cap, sizeof *c->drainer_return_paths);
	c->binds = calloc(cap, sizeof *c->binds);
	c->symlinks = calloc(cap, sizeof *c->symlinks);
	c->copy_ins = calloc(cap, sizeof *c->copy_ins);
	c->bind_ins = calloc(cap, sizeof *c->bind_ins);
	c->copy_outs = calloc(cap, sizeof *c->copy_outs);
	c->rlimits = calloc(cap, sizeof *c->rlimits);
	c->envp = calloc(cap + 1, sizeof *c->envp);
	if (!c->cgroup_paths || !c->cgroup_fds || !c->init_return_paths || !c->init_return_fds || !c->drainer_cgroup_paths || !c->drainer_return_paths || !c->binds || !c->symlinks || !c->copy_ins ||
	    !c->bind_ins || !c->copy_outs || !c->rlimits || !c->envp)
		return fail(CTL_EXEC, ENOMEM, "calloc");

	int i = 1;
	for (; i < argc; i++) {
		const char *opt = argv[i];
		if (!strcmp(opt, "--")) {
			i++;
			break;
		}
		if (i + 1 >= argc)
			return fail(CTL_EXEC, EINVAL, "option %s needs a value", opt);
		/* A copy: values are split in place, and the launcher's own
		 * /proc/PID/cmdline (host ps) should keep showing what was passed. */
		char *v = strdup(argv[++i]);
		if (!v)
			return fail(CTL_EXEC, ENOMEM, "strdup");
		char *a, *b, *m;
		uint64_t n;
		if (!strcmp(opt, "--uid")) {
			if (parse_id(v, &c->uid) < 0)
				return fail(CTL_UID_GID, EINVAL, "bad --uid %s", v);
			have_uid = 1;
		} else if (!strcmp(opt, "--gid")) {
			if (parse_id(v, &c->gid) < 0)
				return fail(CTL_UID_GID, EINVAL, "bad --gid %s", v);
			have_gid = 1;
		} else if (!strcmp(opt, "--hostname")) {
			if (!*v || strlen(v) > 64)
				return fail(CTL_UTS_NAMESPACE, EINVAL, "bad --hostname");
			c->hostname = v;
		} else if (!strcmp(opt, "--netns")) {
			c->netns_path = v;
		} else if (!strcmp(opt, "--cgroup-procs")) {
			c->cgroup_paths[c->n_cgroups++] = v;
		} else if (!strcmp(opt, "--init-return-procs")) {
			c->init_return_paths[c->n_init_returns++] = v;
		} else if (!strcmp(opt, "--memory-limit")) {
			if (parse_u64(v, 10, &c->memory_limit) < 0 || c->memory_limit == 0)
				return fail(CTL_PROC_MASKS, EINVAL, "bad --memory-limit %s", v);
		} else if (!strcmp(opt, "--output-cap")) {
			if (parse_u64(v, 10, &c->output_cap) < 0)
				return fail(CTL_OUTPUT_DRAIN, EINVAL, "bad --output-cap %s", v);
			c->has_output_cap = 1;
		} else if (!strcmp(opt, "--merge-stderr")) {
			if (strcmp(v, "0") && strcmp(v, "1"))
				return fail(CTL_EXEC, EINVAL, "--merge-stderr takes 0 or 1");
			c->merge_stderr = !strcmp(v, "1");
		} else if (!strcmp(opt, "--drainer-cgroup-procs")) {
			c->drainer_cgroup_paths[c->n_drainer_cgroups++] = v;
		} else if (!strcmp(opt, "--drainer-return-procs")) {
			c->drainer_return_paths[c->n_drainer_returns++] = v;
		} else if (!strcmp(opt, "--bind-ro") || !strcmp(opt, "--bind-hidden") || !strcmp(opt, "--file-ro")) {
			/* A hidden bind's source is entered with chdir: its path must be absolute. */
			int hidden = !strcmp(opt, "--bind-hidden");
			if (split_last(v, &a, &b) < 0 || !*a || (hidden && *a != '/'))
				return fail(CTL_ROOT_FILESYSTEM, EINVAL, "bad %s %s", opt, v);
			if (!valid_sandbox_path(b))
				return fail(CTL_ROOT_FILESYSTEM, EINVAL, "bad %s sandbox path %s", opt, b);
			c->binds[c->n_binds++] = (struct bind_ro){
				.host = a, .path = b, .tree_fd = -1, .hidden = hidden, .copy = !strcmp(opt, "--file-ro")};
		} else if (!strcmp(opt, "--symlink")) {
			if (split_last(v, &a, &b) < 0 || !*a)
				return fail(CTL_ROOT_FILESYSTEM, EINVAL, "bad --symlink %s", v);
			if (!valid_sandbox_path(b))
				return fail(CTL_ROOT_FILESYSTEM, EINVAL, "bad --symlink link path %s", b);
			c->symlinks[c->n_symlinks++] = (struct symlink_ent){.target = a, .path = b};
		} else if (!strcmp(opt, "--box-size")) {
			if (parse_u64(v, 10, &c->box_size) < 0 || c->box_size == 0) /* size=0: unlimited tmpfs */
				return fail(CTL_WORK_DIR, EINVAL, "bad --box-size %s", v);
		} else if (!strcmp(opt, "--tmp-size")) {
			if (parse_u64(v, 10, &c->tmp_size) < 0 || c->tmp_size == 0)
				return fail(CTL_TMP, EINVAL, "bad --tmp-size %s", v);
		} else if (!strcmp(opt, "--copy-in")) {
			if (split_last(v, &a, &m) < 0 || split_last(a, &a, &b) < 0 || !*a || !valid_box_path(b) ||
			    parse_u64(m, 8, &n) < 0 || n > 0777)
				return fail(CTL_WORK_DIR, EINVAL, "bad --copy-in");
			c->copy_ins[c->n_copy_ins++] =
				(struct copy_in){.host = a, .name = b, .mode = (mode_t)n, .fd = -1};
		} else if (!strcmp(opt, "--bind-in")) {
			if (split_last(v, &a, &b) < 0 || !*a || !valid_name(b))
				return fail(CTL_WORK_DIR, EINVAL, "bad --bind-in");
			c->bind_ins[c->n_bind_ins++] = (struct bind_in){.host = a, .name = b, .tree_fd = -1};
		} else if (!strcmp(opt, "--copy-out")) {
			char *first = strchr(v, ':');
			if (!first)
				return fail(CTL_WORK_DIR, EINVAL, "bad --copy-out");
			*first = '\0';
			if (!valid_name(v) || split_last(first + 1, &a, &m) < 0 || !*a || parse_u64(m, 10, &n) < 0)
				return fail(CTL_WORK_DIR, EINVAL, "bad --copy-out");
			c->copy_outs[c->n_copy_outs++] = (struct copy_out){.name = v, .host = a, .max = n, .fd = -1};
		} else if (!strcmp(opt, "--rlimit")) {
			char *eq = strchr(v, '=');
			int res;
			rlim_t val;
			if (!eq)
				return fail(CTL_RLIMITS, EINVAL, "bad --rlimit %s", v);
			*eq = '\0';
			if ((res = rlimit_resource(v)) < 0)
				return fail(CTL_RLIMITS, EINVAL, "unknown rlimit %s", v);
			if (!strcmp(eq + 1, "unlimited"))
				val = RLIM_INFINITY;
			else if (parse_u64(eq + 1, 10, &n) < 0)
				return fail(CTL_RLIMITS, EINVAL, "bad rlimit value for %s", v);
			else
				val = (rlim_t)n;
			c->rlimits[c->n_rlimits++] = (struct rlimit_ent){.resource = res, .value = val};
		} else if (!strcmp(opt, "--env")) {
			if (!strchr(v, '=') || v[0] == '=')
				return fail(CTL_ENVIRONMENT, EINVAL, "bad --env entry");
			c->envp[c->n_env++] = v;
		} else if (!strcmp(opt, "--cwd")) {
			if (v[0] != '/')
				return fail(CTL_WORK_DIR, EINVAL, "--cwd must be absolute");
			c->cwd = v;
		} else {
			return fail(CTL_EXEC, EINVAL, "unknown option %s", opt);
		}
	}
	if (!have_uid || !have_gid)
		return fail(CTL_UID_GID, EINVAL, "--uid and --gid are required");
	if (!c->memory_limit)
		return fail(CTL_PROC_MASKS, EINVAL, "--memory-limit is required (the MemTotal of /proc/meminfo)");
	if (i >= argc || !argv[i][0])
		return fail(CTL_EXEC, EINVAL, "no program after --");
	c->argv = &argv[i];
	return 0;
}

/* ---- host-side fds, opened while host paths are visible ---- */

static int open_host_fds(struct config *c)
{
	for (size_t i = 0; i < c->n_cgroups; i++) {
		c->cgroup_fds[i] = open(c->cgroup_paths[i], O_WRONLY | O_CLOEXEC);
		if (c->cgroup_fds[i] < 0)
			return fail(CTL_CGROUP, errno, "open %s", c->cgroup_paths[i]);
	}
	for (size_t i = 0; i < c->n_init_returns; i++) {
		c->init_return_fds[i] = open(c->init_return_paths[i], O_WRONLY | O_CLOEXEC);
		if (c->init_return_fds[i] < 0)
			return fail(CTL_CGROUP, errno, "open %s", c->init_return_paths[i]);
	}
	if (c->netns_path) {
		c->netns_fd = open(c->netns_path, O_RDONLY | O_CLOEXEC);
		if (c->netns_fd < 0)
			return fail(CTL_NETWORK_NAMESPACE, errno, "open %s", c->netns_path);
	}
	for (size_t i = 0; i < c->n_copy_outs; i++) {
		struct copy_out *co = &c->copy_outs[i];
		co->fd = open(co->host, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (co->fd < 0) {
			fail(CTL_WORK_DIR, errno, "create copy-out target %s", co->host);
			while (i-- > 0) /* the run never starts: take back what was created */
				unlink(c->copy_outs[i].host);
			return -1;
		}
	}
	c->launcher_pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (c->launcher_pidfd < 0)
		return fail(CTL_PID_NAMESPACE, errno, "pidfd_open self");
	return 0;
}

/* ---- supervision ---- */

static void write_now(const char *line)
{
	status_line("%s", line);
	status_flush();
}

static void kill_init(int pidfd)
{
	if (syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0) == 0)
		write_now("killed");
}

/* Until init exits: a 'k' or EOF (or any error) on the control fd kills it. Meanwhile, and until
 * the program's output pipes reach EOF, the output is drained (drain.c). */
static void supervise(pid_t init, int pidfd)
{
	struct pollfd p[4] = {{.fd = CONTROL_FD, .events = POLLIN}, {.fd = pidfd, .events = POLLIN}};
	for (;;) {
		drain_pollfds(&p[2]);
		if (p[1].fd < 0 && p[2].fd < 0 && p[3].fd < 0)
			break; /* init exited and the output reached its end */
		int n = poll(p, 4, -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (p[0].fd >= 0)
				kill_init(pidfd); /* cannot watch the control fd: fail closed */
			break;
		}
		drain_events(&p[2]);
		if (p[1].revents) {
			/* init exited: with it every process of the namespace, so the pipes end too */
			p[0].fd = p[1].fd = -1;
			continue;
		}
		if (p[0].revents) {
			char buf[64];
			ssize_t r = read(CONTROL_FD, buf, sizeof buf);
			if (r < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (r <= 0 || memchr(buf, 'k', (size_t)r)) {
				kill_init(pidfd);
				p[0].fd = -1; /* from now on only wait for init */
			}
		}
	}
	int st;
	while (waitpid(init, &st, 0) < 0 && errno == EINTR)
		;
}

/* ---- --create-netns PATH ---- */

static int create_netns(const char *path)
{
	struct statfs sfs;
	if (statfs(path, &sfs) == 0 && (unsigned long)sfs.f_type == NSFS_MAGIC)
		return 0; /* already a persisted namespace */
	if (unshare(CLONE_NEWNET) < 0) {
		perror("codecell-launcher: unshare(CLONE_NEWNET)");
		return 1;
	}
	int fd = open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0444);
	if (fd < 0) {
		perror("codecell-launcher: create netns file");
		return 1;
	}
	close(fd);
	if (mount("/proc/self/ns/net", path, NULL, MS_BIND, NULL) < 0) {
		perror("codecell-launcher: bind /proc/self/ns/net");
		return 1;
	}
	return 0;
}

/* ---- main ---- */

static int early_fail(void)
{
	status_fail(&g_failure);
	status_line("done");
	status_flush();
	return 1;
}

int main(int argc, char **argv)
{
	if (argc < 1)
		return 2;
	signal(SIGPIPE, SIG_IGN);
	char *args_start = argv[0];
	char *args_end = argv[argc - 1] + strlen(argv[argc - 1]) + 1;
	if (argc == 3 && !strcmp(argv[1], "--create-netns"))
		return create_netns(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "--probe-ia32"))
		return probe_ia32();
	if (argc == 2 && !strcmp(argv[1], "--print-policy"))
		return seccomp_print_policy();
	if (argc == 3 && !strcmp(argv[1], "--serve"))
		return zygote_main(argv[2], args_start, args_end);
	return launcher_main(argc, argv, args_start, args_end);
}

/* One run. args_start..args_end is the process's own command-line area, which init wipes so the
 * program cannot read host paths from /proc/1/cmdline. */
int launcher_main(int argc, char **argv, char *args_start, char *args_end)
{
	static struct config cfg;
	struct config *c = &cfg;

	pid_t parent = getppid();
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
		return 1;
	if (fcntl(STATUS_FD, F_GETFD) < 0)
		return 2; /* no status channel: nobody to report to */
	if (fcntl(CONTROL_FD, F_GETFD) < 0) {
		fail(CTL_EXEC, errno, "control fd 4 is not open");
		return early_fail();
	}
	/* Nothing beyond fds 0-4 is part of the contract: drop whatever the
	 * spawner leaked so it can never reach init or the program. */
	syscall(SYS_close_range, CONTROL_FD + 1, ~0U, 0);
	c->args_start = args_start;
	c->args_end = args_end;
	if (parse_args(argc, argv, c) < 0 || open_host_fds(c) < 0)
		return early_fail();
	if (c->has_output_cap && drain_prepare(c) < 0)
		return early_fail();

	int pidfd = -1;
	unsigned long flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_PIDFD | SIGCHLD;
	if (c->netns_fd < 0)
		flags |= CLONE_NEWNET;
	/* fork-like clone (no new stack): the child continues here. */
	long pid = syscall(SYS_clone, flags, NULL, &pidfd, NULL, 0);
	if (pid < 0) {
		fail(CTL_PID_NAMESPACE, errno, "clone(NEWPID|NEWNS|NEWIPC|NEWUTS%s)",
		     c->netns_fd < 0 ? "|NEWNET" : "");
		return early_fail();
	}
	if (pid == 0)
		init_main(c);

	/* The program's stdin/stdout/stderr are not ours to keep. */
	syscall(SYS_close_range, 0, 2, 0);
	if (c->has_output_cap && drain_join(c) < 0) {
		status_fail(&g_failure); /* the run does not count: kill it before the program starts */
		syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	}
	supervise((pid_t)pid, pidfd);
	drain_report();
	write_now("done");
	return 0;
}
