/* Copying bytes between fds: copy-ins and --file-ro (mounts.c), copy-outs (copyout.c), whole writes. */
#include <errno.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "copyfd.h"

/* Copies LEN bytes (or up to EOF) from IN to OUT. */
int copy_fd(int in, int out, uint64_t len, uint64_t *copied)
{
	uint64_t done = 0;
	int use_rw = 0;
	char buf[65536];
	while (done < len) {
		size_t want = len - done > (1u << 30) ? (1u << 30) : (size_t)(len - done);
		ssize_t n;
		if (!use_rw) {
			n = sendfile(out, in, NULL, want);
			if (n < 0 && (errno == EINVAL || errno == ENOSYS)) {
				use_rw = 1;
				continue;
			}
		} else {
			n = read(in, buf, want < sizeof buf ? want : sizeof buf);
			if (n > 0) {
				ssize_t w = 0;
				while (w < n) {
					ssize_t k = write(out, buf + w, (size_t)(n - w));
					if (k < 0 && errno == EINTR)
						continue;
					if (k <= 0) {
						*copied = done;
						return -1;
					}
					w += k;
				}
			}
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			*copied = done;
			return -1;
		}
		if (n == 0)
			break;
		done += (uint64_t)n;
	}
	*copied = done;
	return 0;
}

/* Writes all of BUF, retrying short writes and EINTR. */
int write_full(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}
