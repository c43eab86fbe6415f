/* The run's pid 1 (init.c): its set-up pipelines, "go", the program's end. */
#ifndef CODECELL_INIT_H
#define CODECELL_INIT_H

#include "config.h"

__attribute__((noreturn)) void init_main(struct config *c);

#endif
