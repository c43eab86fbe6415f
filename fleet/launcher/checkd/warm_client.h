/* The check server's side of a dynamically linked checker's warm start (warm_client.c; warm/warm.c). */
#ifndef CHECKD_WARM_CLIENT_H
#define CHECKD_WARM_CLIENT_H

#include <stdint.h>
#include <sys/types.h>
#include "checkd.h"

int checkd_warm_start(char **argv, const struct checkd_limits *limits);
pid_t checkd_warm_pid(void); /* -1 when the checker is not warm: each check execs it */
int checkd_warm_fork(uint64_t cpu_secs, int err_w, pid_t *pid);
int checkd_warm_ended(int *status, uint64_t *cpu_usec, uint64_t *maxrss_kib);

#endif
