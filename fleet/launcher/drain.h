/* The output drainer (drain.c, the launcher): see the file's header. */
#ifndef CODECELL_DRAIN_H
#define CODECELL_DRAIN_H

#include "config.h"

struct pollfd;
int drain_prepare(struct config *c);
int drain_join(const struct config *c);
void drain_pollfds(struct pollfd *p); /* fills p[0], p[1] */
void drain_events(const struct pollfd *p);
void drain_report(void);
void drain_forget(void); /* init: its copies of the drainer's fds, closed */

#endif
