/* The check server: one check, from fork to its end (run.c). */
#ifndef CHECKD_RUN_H
#define CHECKD_RUN_H

#include "checkd.h"

/* The report has everything but stderr's bytes, which are in STDERR_BUF. */
int checkd_run(char **argv, const struct checkd_limits *limits, struct checkd_report *report, char *stderr_buf);

#endif
