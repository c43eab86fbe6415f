/* Shared by the zygote (zygote.c) and its spares (spares.c). */
#ifndef CODECELL_ZYGOTE_H
#define CODECELL_ZYGOTE_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_REQUEST (1u << 20)
#define NONCE_LEN 32

/* zygote.c */
void close_pair(void);
int read_full(int fd, void *buf, size_t len);
/* Moves a new fd above 0-4 (close-on-exec), so wiring a run's fds cannot clobber it. */
int high(int fd);
/* A connection to the supervisor's socket, introduced by "NONCE KIND\n"; -1 if it fails. */
int connect_stream(const char *path, const char *nonce, const char *kind);
/* In a forked child: wire fds 0-4 for one run's request, then become that run's launcher.
 * CONNECTED: a spare's out, err and ctl connections; NULL: they are made now, under the nonce. */
int child_run(const char *socket_path, char *request, size_t len, const int *connected, char *args_start, char *args_end);

/* spares.c: the spare children, two per CPU set the requests name, connected ahead. */
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
