/* The program child (pid 2). Forked as soon as the namespaces exist, it
 * drops everything in the fixed order of child_steps while init is still assembling
 * the root, then waits for init's "go" (root complete: pivoted, proc mounted,
 * sealed) and only then changes into the work dir and execs. Its root and cwd
 * are the old root until init's pivot_root moves them. Before "go" it runs
 * nothing but this code, as the program's uid, non-dumpable (the uid change
 * cleared that), with no fd but 0-2 and its two pipe ends. */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cgroups.h"
#include "config.h"
#include "privileges.h"
#include "program.h"
#include "rlimits.h"
#include "seccomp.h"
#include "status.h"

struct child_step {
	int (*fn)(const struct config *);
	enum control control; /* reported by init once the step succeeded */
};

/* A session of its own: kill(0, ...) and job-control signals reach only
 * the program's own processes, never the launcher, the node or another run. */
static int new_session(const struct config *c)
{
	(void)c;
	return setsid() < 0 ? fail(CTL_SESSION, errno, "setsid") : 0;
}

/* Made after joining the run's cgroups, so /proc/self/cgroup shows "/". */
static int new_cgroup_namespace(const struct config *c)
{
	(void)c;
	return unshare(CLONE_NEWCGROUP) < 0 ? fail(CTL_CGROUP_NAMESPACE, errno, "unshare(CLONE_NEWCGROUP)") : 0;
}

static int drop_ids(const struct config *c)
{
	return privileges_drop_caps_bounding() < 0 ? -1 : privileges_set_ids(c);
}

static int clear_caps(const struct config *c)
{
	(void)c;
	return privileges_clear_caps();
}

static int no_new_privs(const struct config *c)
{
	(void)c;
	return privileges_no_new_privs();
}

static int install_seccomp(const struct config *c)
{
	(void)c;
	return seccomp_install();
}

/* Program-side controls in the order they are applied; n_ok of a failure
 * counts the steps of this list that had succeeded. */
static const struct child_step child_steps[] = {
	{cgroups_join, CTL_CGROUP},
	{new_session, CTL_SESSION},
	{new_cgroup_namespace, CTL_CGROUP_NAMESPACE},
	{rlimits_apply, CTL_RLIMITS},
	{drop_ids, CTL_UID_GID},
	{clear_caps, CTL_CAPABILITIES},
	{no_new_privs, CTL_NO_NEW_PRIVILEGES},
	{install_seccomp, CTL_SECCOMP},
};
#define N_CHILD_STEPS (sizeof child_steps / sizeof child_steps[0])

/* Without --cgroup-procs there are no cgroups to join, and no control to report. */
static int step_applies(const struct config *c, const struct child_step *s)
{
	return s->control != CTL_CGROUP || c->n_cgroups;
}

void program_controls_applied(const struct config *c, int n_ok)
{
	for (size_t i = 0; i < N_CHILD_STEPS && n_ok > 0; i++) {
		if (!step_applies(c, &child_steps[i]))
			continue;
		status_applied(child_steps[i].control);
		n_ok--;
	}
	if (n_ok > 0) /* the environment is the exec's own */
		status_applied(CTL_ENVIRONMENT);
}

static const char *env_path(char *const *envp)
{
	for (; *envp; envp++)
		if (!strncmp(*envp, "PATH=", 5))
			return *envp + 5;
	return "/usr/local/bin:/usr/bin:/bin";
}

/* execve, with a PATH search (from the sandbox environment) for a bare name. */
static int exec_program(const struct config *c)
{
	const char *file = c->argv[0];
	if (strchr(file, '/')) {
		execve(file, c->argv, c->envp);
		return fail(CTL_EXEC, errno, "execve %s", file);
	}
	int err = ENOENT;
	char path[PATH_MAX];
	const char *p = env_path(c->envp);
	for (;;) {
		const char *e = strchrnul(p, ':');
		size_t dl = (size_t)(e - p);
		if (dl == 0) { /* empty entry: current directory */
			path[0] = '.';
			dl = 1;
		} else if (dl < sizeof path) {
			memcpy(path, p, dl);
		}
		if (dl + 1 + strlen(file) < sizeof path) {
			path[dl] = '/';
			strcpy(path + dl + 1, file);
			execve(path, c->argv, c->envp);
			if (errno == EACCES)
				err = EACCES;
			else if (errno != ENOENT && errno != ENOTDIR)
				return fail(CTL_EXEC, errno, "execve %s", path);
		}
		if (!*e)
			break;
		p = e + 1;
	}
	return fail(CTL_EXEC, err, "execve %s (PATH search)", file);
}

/* Before any control: the fds and signal state the program must not inherit. */
static int prepare(const struct config *c)
{
	sigset_t none;

	close(STATUS_FD);
	for (size_t i = 0; i < c->n_copy_outs; i++)
		close(c->copy_outs[i].fd);
	/* What is left (cgroup fds, the two pipe ends) is O_CLOEXEC already;
	 * anything else the launcher inherited is made so too. */
	if (syscall(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
		return fail(CTL_EXEC, errno, "close_range");
	/* The launcher ignores SIGPIPE; ignored dispositions survive execve. */
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	umask(022);
	return 0;
}

static int apply_steps(const struct config *c, int *n_ok)
{
	for (size_t i = 0; i < N_CHILD_STEPS; i++) {
		if (!step_applies(c, &child_steps[i]))
			continue;
		if (child_steps[i].fn(c) < 0)
			return -1;
		(*n_ok)++;
	}
	return 0;
}

/* EOF: init failed to build the root and has already reported it. */
static void await_go(int go_r)
{
	char go;
	ssize_t r;
	do
		r = read(go_r, &go, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		_exit(127);
}

__attribute__((noreturn)) void program_child(struct config *c, int exec_w, int go_r)
{
	int n_ok = 0;
	if (prepare(c) == 0 && apply_steps(c, &n_ok) == 0) {
		await_go(go_r);
		if (chdir(c->cwd) < 0)
			fail(CTL_WORK_DIR, errno, "chdir %s", c->cwd);
		else
			exec_program(c);
	}
	g_failure.n_ok = n_ok;
	if (write(exec_w, &g_failure, sizeof g_failure) < 0) {
		/* init will see EOF and a 127 exit; nothing else to do */
	}
	_exit(127);
}
