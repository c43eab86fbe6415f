/* After the program (evidence.c, init): leftovers killed and counted, the run's end reported. */
#ifndef CODECELL_EVIDENCE_H
#define CODECELL_EVIDENCE_H

#include <time.h>
#include "config.h"

unsigned evidence_kill_leftovers(void); /* how many processes were left */
void evidence_report(const struct config *c, int st, const struct timespec *t_go, const struct timespec *t_end,
		     unsigned fsize_attempts, unsigned leftover);

#endif
