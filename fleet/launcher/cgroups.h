/* Joining and leaving the run's cgroups (cgroups.c): the program child's join, init's own join and return. */
#ifndef CODECELL_CGROUPS_H
#define CODECELL_CGROUPS_H

#include "config.h"

int cgroups_join(const struct config *c);
int cgroups_join_init(struct config *c);
void cgroups_leave_init(const struct config *c);

#endif
