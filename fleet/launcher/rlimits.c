/* Program child: resource limits (soft = hard), set while still root. */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>

#include "config.h"
#include "rlimits.h"
#include "status.h"

static const struct {
	const char *name;
	int resource;
} table[] = {
	{"cpu", RLIMIT_CPU},       {"fsize", RLIMIT_FSIZE}, {"core", RLIMIT_CORE}, {"nofile", RLIMIT_NOFILE},
	{"stack", RLIMIT_STACK},   {"nproc", RLIMIT_NPROC}, {"as", RLIMIT_AS},
};

int rlimit_resource(const char *name)
{
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(table[i].name, name))
			return table[i].resource;
	return -1;
}

static const char *rlimit_name(int resource)
{
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (table[i].resource == resource)
			return table[i].name;
	return "?";
}

/* No core dump: RLIMIT_CORE is 1, never 0. A piped core_pattern (systemd-coredump, apport)
 * ignores the limit except the value 1, which aborts the dump; a file pattern writes nothing
 * below one page. 0 would start the host's helper on every crash. --rlimit core=0 means 1 too;
 * the seccomp filter keeps the program from lowering it. */
#define CORE_NONE 1

int rlimits_apply(const struct config *c)
{
	struct rlimit none = {CORE_NONE, CORE_NONE};
	if (setrlimit(RLIMIT_CORE, &none) < 0)
		return fail(CTL_RLIMITS, errno, "setrlimit core");
	for (size_t i = 0; i < c->n_rlimits; i++) {
		rlim_t v = c->rlimits[i].value;
		if (c->rlimits[i].resource == RLIMIT_CORE && v < CORE_NONE)
			v = CORE_NONE;
		struct rlimit rl = {v, v};
		if (setrlimit(c->rlimits[i].resource, &rl) < 0)
			return fail(CTL_RLIMITS, errno, "setrlimit %s", rlimit_name(c->rlimits[i].resource));
	}
	return 0;
}

rlim_t rlimits_fsize(const struct config *c)
{
	rlim_t v = RLIM_INFINITY;
	for (size_t i = 0; i < c->n_rlimits; i++)
		if (c->rlimits[i].resource == RLIMIT_FSIZE)
			v = c->rlimits[i].value;
	return v;
}
