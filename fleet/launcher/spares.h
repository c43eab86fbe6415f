/* The zygote's spare children (spares.c): two per CPU set the requests name, connected ahead. */
#ifndef CODECELL_SPARES_H
#define CODECELL_SPARES_H

#include <poll.h>
#include <stddef.h>

#define MAX_CPU_SETS 256
#define SPARES_POLLED (2 * MAX_CPU_SETS)

/* A request reached the zygote: its CPU set gets spares (made, or woken from dormancy). */
void spares_want(const char *request, size_t len);
/* Forks every spare missing (not in a dormant set) and fills P with one pollfd per spare place
 * (its run-over pipe); returns how many. */
size_t spares_refill(struct pollfd *p, const char *socket_path, char *args_start, char *args_end);
/* After poll: a spare that took its request, or whose run (or life) is over. */
void spares_events(const struct pollfd *p);

#endif
