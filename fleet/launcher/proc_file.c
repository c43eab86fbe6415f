/* A small /proc file read whole: the host's /proc/stat and /proc/vmstat (procfs.c), a process's
 * children and status (forward.c), and, in the check server too (build.sh), each process's stat
 * (checkd/tree_cpu.c). */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "proc_file.h"

ssize_t read_proc_file(const char *path, char *buf, size_t size)
{
	buf[0] = '\0';
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t len = 0;
	ssize_t r = 0;
	while (len < size - 1 && (r = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)r;
	int err = errno;
	close(fd);
	buf[len] = '\0';
	if (r < 0) {
		errno = err;
		return -1;
	}
	return (ssize_t)len;
}
