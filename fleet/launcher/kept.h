/* The node's own cgroup.procs files, opened once by the zygote for every run (kept.c). */
#ifndef CODECELL_KEPT_H
#define CODECELL_KEPT_H

#include <stddef.h>

#define KEPT_MAX 32
void kept_from_request(const char *request, size_t len); /* the zygote: keep what it names */
int kept_open(const char *path);                         /* a copy of the kept file, or opened now */
size_t kept_list(int *fds, size_t max);                  /* the kept fds, for the launcher's fd hygiene */
void kept_close_all(void);                               /* the launcher, before clone */

#endif
