/* Copying bytes between fds, and whole writes (copyfd.c). */
#ifndef CODECELL_COPYFD_H
#define CODECELL_COPYFD_H

#include <stddef.h>
#include <stdint.h>

/* Copies LEN bytes (or up to EOF) from IN to OUT. */
int copy_fd(int in, int out, uint64_t len, uint64_t *copied);
/* Writes all of BUF (retrying EINTR and short writes); 0 or -1. */
int write_full(int fd, const char *buf, size_t len);

#endif
