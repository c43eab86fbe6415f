/* The host objects the root needs, opened before it shadows any host path (sources.c, init). */
#ifndef CODECELL_SOURCES_H
#define CODECELL_SOURCES_H

#include "config.h"

int sources_open(struct config *c);

#endif
