#include <errno.h>
#include <unistd.h>

#include "io.h"

/* Reads exactly n bytes; 0 on success, 1 on end of input before the first byte, -1 otherwise. */
int read_exact(int fd, void *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return (r == 0 && got == 0) ? 1 : -1;
		got += (size_t)r;
	}
	return 0;
}
