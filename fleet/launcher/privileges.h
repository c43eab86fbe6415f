/* Capabilities, ids, no_new_privs (privileges.c, the program child). */
#ifndef CODECELL_PRIVILEGES_H
#define CODECELL_PRIVILEGES_H

#include "config.h"

/* The zygote's: its bounding set emptied once for every run it forks (failing, each run's own). */
void privileges_empty_bounding_set_early(void);
int privileges_drop_caps_bounding(void);
int privileges_set_ids(const struct config *c);
int privileges_clear_caps(void);
int privileges_no_new_privs(void);

#endif
