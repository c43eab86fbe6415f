/* The check server (docs/sandbox.md, "Check server"): its report and a check's limits. */
#ifndef CHECKD_H
#define CHECKD_H

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

#endif
