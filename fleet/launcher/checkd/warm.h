/* The fd on which a warm-started checker (warm/warm.c) finds the check server's socket. Below
 * every RLIMIT_NOFILE a run may have (a lower limit only means no warm start). */
#ifndef CHECKD_WARM_H
#define CHECKD_WARM_H
#define WARM_FD 200
#define WARM_PRELOAD "/opt/checkd-warm.so"
#endif
