/* Shared by the zygote (zygote.c) and its spares (spares.c). */
#ifndef CODECELL_ZYGOTE_H
#define CODECELL_ZYGOTE_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_REQUEST (1u << 20)

/* zygote.c */
void close_pair(void);
int read_full(int fd, void *buf, size_t len);
/* Moves a new fd above 0-4 (close-on-exec), so wiring a run's fds cannot clobber it. */
int high(int fd);
/* In a forked child: wire fds 0-4 for one run's request, then become that run's launcher. */
int child_run(const char *socket_path, char *request, size_t len, char *args_start, char *args_end);

/* spares.c: the spare children, one per CPU set the requests name. */
#define MAX_CPU_SETS 256
/* Forks the spare of every set that has none and no run in progress, and fills P (one pollfd per
 * set: its run-over pipe); returns how many. */
size_t spares_refill(struct pollfd *p, const char *socket_path, char *args_start, char *args_end);
/* After poll: the sets whose run is over. */
void spares_runs_over(const struct pollfd *p);
/* Hands a request to the spare of its CPU set (forked now if none waits); 0 once it has it, -1
 * when it must be forked for (the table is full, or no spare could be made). */
int spares_take(const char *request, uint32_t len, const char *socket_path, char *args_start, char *args_end);

#endif
