/* The copy-outs (copyout.c, init, after the program). */
#ifndef CODECELL_COPYOUT_H
#define CODECELL_COPYOUT_H

#include "config.h"

void copyouts_run(const struct config *c);

#endif
