/* The rlimits (rlimits.c, the program child). */
#ifndef CODECELL_RLIMITS_H
#define CODECELL_RLIMITS_H

#include <sys/resource.h>
#include "config.h"

int rlimit_resource(const char *name);
int rlimits_apply(const struct config *c);
rlim_t rlimits_fsize(const struct config *c); /* RLIM_INFINITY when not given */

#endif
