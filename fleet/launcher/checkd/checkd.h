/* The check server (docs/sandbox.md, "Check server"): the shared declarations. */
#ifndef CHECKD_H
#define CHECKD_H

#include <stddef.h>
#include <stdint.h>

/* The first CHECKD_STDERR_KEPT bytes of a check's stderr are reported; the rest is drained and dropped. */
#define CHECKD_STDERR_KEPT 4096
#define CHECKD_MAGIC 0x31444b43u /* "CKD1" */

enum { CHECKD_EXITED = 0, CHECKD_SIGNALED = 1 };
enum { CHECKD_CPU_TIMEOUT = 1, CHECKD_WALL_TIMEOUT = 2, CHECKD_KILLED = 4 };

/* One check's report: eight little-endian u64s, then stderr_len bytes of stderr. */
struct checkd_report {
	uint64_t magic, kind, value, flags, cpu_usec, wall_usec, maxrss_bytes, stderr_len;
};

struct checkd_limits {
	uint64_t cpu_ms, wall_ms;
};

/* run.c: one check, from fork to its end (the report has everything but stderr's bytes). */
int checkd_run(char **argv, const struct checkd_limits *limits, struct checkd_report *report, char *stderr_buf);

/* warm_client.c: the warm start of a dynamically linked checker (warm/warm.c). */
#include <sys/types.h>
int checkd_warm_start(char **argv, const struct checkd_limits *limits);
pid_t checkd_warm_pid(void); /* -1 when the checker is not warm: each check execs it */
int checkd_warm_fork(uint64_t cpu_secs, int err_w, pid_t *pid);
int checkd_warm_ended(int *status, uint64_t *cpu_usec, uint64_t *maxrss_kib);

/* cleanup.c: what a check leaves behind. */
/* Reads exactly n bytes; 0 on success, 1 on end of input before the first byte, -1 otherwise (io.c). */
int read_exact(int fd, void *buf, size_t n);

int checkd_snapshot_box(void);
int checkd_kill_leftovers(void);
int checkd_clean_files(void);
int checkd_empty_dir(const char *path);
int checkd_remove_tree(int at, const char *name);

/* tree_cpu.c: the CPU time of every process of the check, children included. */
uint64_t checkd_tree_cpu_usec(void);

/* prepared.c: the checker's prepared files, kept and copied in again after each check. */
int checkd_snapshot_prepared(const char *const *names, size_t n);
int checkd_restore_prepared(void);

/* ipc.c: the IPC objects a check leaves behind, and no POSIX message queues. */
int checkd_refuse_mqueues(void);
int checkd_clean_ipc(void);

#endif
