/* The check server: reading a request or a warm start's answer whole (io.c). */
#ifndef CHECKD_IO_H
#define CHECKD_IO_H

#include <stddef.h>

/* Reads exactly n bytes; 0 on success, 1 on end of input before the first byte, -1 otherwise. */
int read_exact(int fd, void *buf, size_t n);

#endif
