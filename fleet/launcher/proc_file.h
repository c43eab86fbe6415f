/* A small /proc file read whole (proc_file.c): the launcher's and the check server's. */
#ifndef CODECELL_PROC_FILE_H
#define CODECELL_PROC_FILE_H

#include <stddef.h>
#include <sys/types.h>

/* At most SIZE - 1 bytes of PATH into BUF, NUL-terminated (empty when nothing could be read);
 * their length, or -1 with errno. */
ssize_t read_proc_file(const char *path, char *buf, size_t size);

#endif
