/* The program child, pid 2 (program.c): its controls in order, "go", execve. */
#ifndef CODECELL_PROGRAM_H
#define CODECELL_PROGRAM_H

#include "config.h"

__attribute__((noreturn)) void program_child(struct config *c, int exec_w, int go_r);
/* Reports the first N_OK program-side controls as applied (INT_MAX: all, the exec's too). */
void program_controls_applied(const struct config *c, int n_ok);

#endif
