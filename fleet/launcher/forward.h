/* A live session's signals, forwarded to the program alone (forward.c, the launcher). */
#ifndef CODECELL_FORWARD_H
#define CODECELL_FORWARD_H

#include <stddef.h>
#include <sys/types.h>

/* Control bytes 'i', 't', 'K' as SIGINT, SIGTERM, SIGKILL to the program. */
void forward_signals(pid_t init, const char *bytes, size_t n);

#endif
