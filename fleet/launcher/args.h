/* The command line into the run's configuration, as a table of options (args.c). */
#ifndef CODECELL_ARGS_H
#define CODECELL_ARGS_H

#include <sched.h>
#include "config.h"

/* The command line into C (zeroed); 0, or -1 with the failure set. */
int parse_args(int argc, char **argv, struct config *c);
/* A kernel CPU list ("0-3,8") into SET; -1 when it is not one (LIST is cut up). */
int parse_cpu_list(char *list, cpu_set_t *set);

#endif
