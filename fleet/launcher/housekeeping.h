/* The zygote's --housekeeping-cpus (housekeeping.c; -1: not a CPU list): the zygote keeps off
 * them, a run's launcher moves there once "done" is written (nothing moves without them). */
#ifndef CODECELL_HOUSEKEEPING_H
#define CODECELL_HOUSEKEEPING_H

int housekeeping_set(const char *list);
void housekeeping_move(void);
void housekeeping_avoid(void);

#endif
