/* A run's child (child.c), shared by the zygote (zygote.c) and its spares (spares.c). */
#ifndef CODECELL_CHILD_H
#define CODECELL_CHILD_H

#include <stddef.h>
#include <stdint.h>

#define MAX_REQUEST (1u << 20)
#define NONCE_LEN 32

int read_full(int fd, void *buf, size_t len);
/* Moves a new fd above 0-4 (close-on-exec), so wiring a run's fds cannot clobber it. */
int high(int fd);
/* A connection to the supervisor's socket, introduced by "NONCE KIND\n"; -1 if it fails. */
int connect_stream(const char *path, const char *nonce, const char *kind);
/* In a forked child: wire fds 0-4 for one run's request, then become that run's launcher.
 * CONNECTED: a spare's out, err and ctl connections; NULL: they are made now, under the nonce. */
int child_run(const char *socket_path, char *request, size_t len, const int *connected, char *args_start, char *args_end);

/* An interactive pair: 'a' or 'b' for its runs' requests, 0 for any other; the pair's pipes made
 * before run a is forked and kept in the zygote only until run b is; a spare drops them. */
int pair_role(const char *request, size_t len);
void pair_before_fork(int role);
void pair_after_fork(int role);
void close_pair(void);

#endif
