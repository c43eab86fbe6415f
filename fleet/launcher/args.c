/* The launcher's command line (PROTOCOL.md) -> struct config. Every option takes one value and
 * is a row of the options table: its name, the control a bad value fails as, and its setter.
 * Options end at "--"; the program's argv follows. */
#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "config.h"
#include "paths.h"
#include "rlimits.h"
#include "status.h"

#define DEFAULT_HOSTNAME "sandbox"
#define DEFAULT_TMPFS_SIZE (64ull << 20)

struct option {
	const char *name;
	enum control control; /* what a bad value fails as */
	int (*set)(struct config *c, const struct option *o, char *v);
	size_t field; /* generic setters: offsetof the config field they write */
	size_t count; /* add_path: offsetof the list's count */
};

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

#define FIELD(c, o, type) ((type *)((char *)(c) + (o)->field))

/* --uid, --gid: a decimal id other than 0 (so 0 also means "not given"). */
static int set_id(struct config *c, const struct option *o, char *v)
{
	uint64_t n;
	if (parse_u64(v, 10, &n) < 0 || n == 0 || n >= 0xffffffffu)
		return fail(o->control, EINVAL, "bad %s %s", o->name, v);
	*FIELD(c, o, unsigned) = (unsigned)n;
	return 0;
}

/* A byte count that must not be 0 (a tmpfs of size=0 is unlimited). */
static int set_size(struct config *c, const struct option *o, char *v)
{
	uint64_t *size = FIELD(c, o, uint64_t);
	if (parse_u64(v, 10, size) < 0 || *size == 0)
		return fail(o->control, EINVAL, "bad %s %s", o->name, v);
	return 0;
}

static int set_path(struct config *c, const struct option *o, char *v)
{
	*FIELD(c, o, const char *) = v;
	return 0;
}

/* A repeatable host path, appended to its list. */
static int add_path(struct config *c, const struct option *o, char *v)
{
	size_t *n = (size_t *)((char *)c + o->count);
	(*FIELD(c, o, const char **))[(*n)++] = v;
	return 0;
}

static int set_hostname(struct config *c, const struct option *o, char *v)
{
	if (!*v || strlen(v) > 64)
		return fail(o->control, EINVAL, "bad --hostname");
	c->hostname = v;
	return 0;
}

static int set_output_cap(struct config *c, const struct option *o, char *v)
{
	if (parse_u64(v, 10, &c->output_cap) < 0)
		return fail(o->control, EINVAL, "bad --output-cap %s", v);
	c->has_output_cap = 1;
	return 0;
}

static int set_merge_stderr(struct config *c, const struct option *o, char *v)
{
	if (strcmp(v, "0") && strcmp(v, "1"))
		return fail(o->control, EINVAL, "--merge-stderr takes 0 or 1");
	c->merge_stderr = !strcmp(v, "1");
	return 0;
}

static int set_stdout_inherit(struct config *c, const struct option *o, char *v)
{
	if (strcmp(v, "0") && strcmp(v, "1"))
		return fail(o->control, EINVAL, "--stdout-inherit takes 0 or 1");
	c->stdout_inherit = !strcmp(v, "1");
	return 0;
}

/* --bind-ro, --bind-hidden, --file-ro HOST:PATH. A hidden bind's source is entered with chdir:
 * its path must be absolute. */
static int add_bind(struct config *c, const struct option *o, char *v)
{
	char *a, *b;
	int hidden = !strcmp(o->name, "--bind-hidden");
	if (split_last(v, &a, &b) < 0 || !*a || (hidden && *a != '/'))
		return fail(o->control, EINVAL, "bad %s %s", o->name, v);
	if (!valid_sandbox_path(b))
		return fail(o->control, EINVAL, "bad %s sandbox path %s", o->name, b);
	c->binds[c->n_binds++] = (struct bind_ro){
		.host = a, .path = b, .tree_fd = -1, .hidden = hidden, .copy = !strcmp(o->name, "--file-ro")};
	return 0;
}

static int add_symlink(struct config *c, const struct option *o, char *v)
{
	char *a, *b;
	if (split_last(v, &a, &b) < 0 || !*a)
		return fail(o->control, EINVAL, "bad --symlink %s", v);
	if (!valid_sandbox_path(b))
		return fail(o->control, EINVAL, "bad --symlink link path %s", b);
	c->symlinks[c->n_symlinks++] = (struct symlink_ent){.target = a, .path = b};
	return 0;
}

/* HOST:NAME:MODE, MODE octal. */
static int add_copy_in(struct config *c, const struct option *o, char *v)
{
	char *a, *b, *m;
	uint64_t n;
	if (split_last(v, &a, &m) < 0 || split_last(a, &a, &b) < 0 || !*a || !valid_box_path(b) ||
	    parse_u64(m, 8, &n) < 0 || n > 0777)
		return fail(o->control, EINVAL, "bad --copy-in");
	c->copy_ins[c->n_copy_ins++] = (struct copy_in){.host = a, .name = b, .mode = (mode_t)n, .fd = -1};
	return 0;
}

static int add_bind_in(struct config *c, const struct option *o, char *v)
{
	char *a, *b;
	if (split_last(v, &a, &b) < 0 || !*a || !valid_name(b))
		return fail(o->control, EINVAL, "bad --bind-in");
	c->bind_ins[c->n_bind_ins++] = (struct bind_in){.host = a, .name = b, .tree_fd = -1};
	return 0;
}

/* NAME:HOST:MAX, NAME up to the first ':' and MAX after the last. */
static int add_copy_out(struct config *c, const struct option *o, char *v)
{
	char *a, *m;
	uint64_t n;
	char *first = strchr(v, ':');
	if (!first)
		return fail(o->control, EINVAL, "bad --copy-out");
	*first = '\0';
	if (!valid_name(v) || split_last(first + 1, &a, &m) < 0 || !*a || parse_u64(m, 10, &n) < 0)
		return fail(o->control, EINVAL, "bad --copy-out");
	c->copy_outs[c->n_copy_outs++] = (struct copy_out){.name = v, .host = a, .max = n, .fd = -1};
	return 0;
}

/* NAME=VALUE, VALUE a decimal number or "unlimited". */
static int add_rlimit(struct config *c, const struct option *o, char *v)
{
	char *eq = strchr(v, '=');
	int res;
	uint64_t n;
	rlim_t val;
	if (!eq)
		return fail(o->control, EINVAL, "bad --rlimit %s", v);
	*eq = '\0';
	if ((res = rlimit_resource(v)) < 0)
		return fail(o->control, EINVAL, "unknown rlimit %s", v);
	if (!strcmp(eq + 1, "unlimited"))
		val = RLIM_INFINITY;
	else if (parse_u64(eq + 1, 10, &n) < 0)
		return fail(o->control, EINVAL, "bad rlimit value for %s", v);
	else
		val = (rlim_t)n;
	c->rlimits[c->n_rlimits++] = (struct rlimit_ent){.resource = res, .value = val};
	return 0;
}

static int add_env(struct config *c, const struct option *o, char *v)
{
	if (!strchr(v, '=') || v[0] == '=')
		return fail(o->control, EINVAL, "bad --env entry");
	c->envp[c->n_env++] = v;
	return 0;
}

/* A kernel CPU list ("0", "0-3,8"), every CPU below CPU_SETSIZE, at least one; V is cut up.
 * -1 (no failure recorded) when it is not one. */
int parse_cpu_list(char *v, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (char *part; (part = strsep(&v, ","));) {
		char *dash = strchr(part, '-');
		uint64_t from, to;
		if (dash)
			*dash = '\0';
		if (parse_u64(part, 10, &from) < 0)
			return -1;
		to = from;
		if ((dash && parse_u64(dash + 1, 10, &to) < 0) || from > to || to >= CPU_SETSIZE)
			return -1;
		for (uint64_t cpu = from; cpu <= to; cpu++)
			CPU_SET(cpu, set);
	}
	return CPU_COUNT(set) == 0 ? -1 : 0;
}

/* --cpus: the run's CPUs. */
static int set_cpus(struct config *c, const struct option *o, char *v)
{
	if (parse_cpu_list(v, &c->cpus) < 0)
		return fail(o->control, EINVAL, "bad --cpus");
	c->has_cpus = 1;
	return 0;
}

static int set_cwd(struct config *c, const struct option *o, char *v)
{
	if (v[0] != '/')
		return fail(o->control, EINVAL, "--cwd must be absolute");
	c->cwd = v;
	return 0;
}

#define AT(field) offsetof(struct config, field)
#define LIST(paths, n) AT(paths), AT(n)

static const struct option options[] = {
	{"--uid", CTL_UID_GID, set_id, AT(uid), 0},
	{"--gid", CTL_UID_GID, set_id, AT(gid), 0},
	{"--hostname", CTL_UTS_NAMESPACE, set_hostname, 0, 0},
	{"--netns", CTL_NETWORK_NAMESPACE, set_path, AT(netns_path), 0},
	{"--cgroup-procs", CTL_CGROUP, add_path, LIST(cgroup_paths, n_cgroups)},
	{"--init-return-procs", CTL_CGROUP, add_path, LIST(init_return_paths, n_init_returns)},
	{"--cpus", CTL_CGROUP, set_cpus, 0, 0},
	{"--memory-limit", CTL_PROC_MASKS, set_size, AT(memory_limit), 0},
	{"--output-cap", CTL_OUTPUT_DRAIN, set_output_cap, 0, 0},
	{"--merge-stderr", CTL_EXEC, set_merge_stderr, 0, 0},
	{"--stdout-inherit", CTL_EXEC, set_stdout_inherit, 0, 0},
	{"--drainer-cgroup-procs", CTL_OUTPUT_DRAIN, add_path, LIST(drainer_cgroup_paths, n_drainer_cgroups)},
	{"--drainer-return-procs", CTL_OUTPUT_DRAIN, add_path, LIST(drainer_return_paths, n_drainer_returns)},
	{"--bind-ro", CTL_ROOT_FILESYSTEM, add_bind, 0, 0},
	{"--bind-hidden", CTL_ROOT_FILESYSTEM, add_bind, 0, 0},
	{"--file-ro", CTL_ROOT_FILESYSTEM, add_bind, 0, 0},
	{"--symlink", CTL_ROOT_FILESYSTEM, add_symlink, 0, 0},
	{"--box-size", CTL_WORK_DIR, set_size, AT(box_size), 0},
	{"--tmp-size", CTL_TMP, set_size, AT(tmp_size), 0},
	{"--copy-in", CTL_WORK_DIR, add_copy_in, 0, 0},
	{"--bind-in", CTL_WORK_DIR, add_bind_in, 0, 0},
	{"--copy-out", CTL_WORK_DIR, add_copy_out, 0, 0},
	{"--rlimit", CTL_RLIMITS, add_rlimit, 0, 0},
	{"--env", CTL_ENVIRONMENT, add_env, 0, 0},
	{"--cwd", CTL_WORK_DIR, set_cwd, 0, 0},
};

static const struct option *find_option(const char *name)
{
	for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
		if (!strcmp(options[i].name, name))
			return &options[i];
	return NULL;
}

/* Defaults, and room for every repeatable option: none can occur more than argc times. */
static int config_init(struct config *c, size_t cap)
{
	c->hostname = DEFAULT_HOSTNAME;
	c->netns_fd = -1;
	c->init_end_fd = -1;
	c->box_size = DEFAULT_TMPFS_SIZE;
	c->tmp_size = DEFAULT_TMPFS_SIZE;
	c->cwd = "/box";
	c->root_fd = c->box_fd = c->tmp_fd = c->masks_fd = -1;
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
	return 0;
}

/* C must be zeroed (the launcher's is static). */
int parse_args(int argc, char **argv, struct config *c)
{
	if (config_init(c, (size_t)argc) < 0)
		return -1;
	int i = 1;
	for (; i < argc; i++) {
		const char *name = argv[i];
		if (!strcmp(name, "--")) {
			i++;
			break;
		}
		if (i + 1 >= argc)
			return fail(CTL_EXEC, EINVAL, "option %s needs a value", name);
		/* A copy: values are split in place, and the launcher's own
		 * /proc/PID/cmdline (host ps) should keep showing what was passed. */
		char *v = strdup(argv[++i]);
		if (!v)
			return fail(CTL_EXEC, ENOMEM, "strdup");
		const struct option *o = find_option(name);
		if (!o)
			return fail(CTL_EXEC, EINVAL, "unknown option %s", name);
		if (o->set(c, o, v) < 0)
			return -1;
	}
	if (!c->uid || !c->gid)
		return fail(CTL_UID_GID, EINVAL, "--uid and --gid are required");
	if (!c->memory_limit)
		return fail(CTL_PROC_MASKS, EINVAL, "--memory-limit is required (the MemTotal of /proc/meminfo)");
	if (i >= argc || !argv[i][0])
		return fail(CTL_EXEC, EINVAL, "no program after --");
	c->argv = &argv[i];
	return 0;
}
