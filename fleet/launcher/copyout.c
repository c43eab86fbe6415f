/* init's copy-outs, after the run: each --copy-out NAME of /box into the host file the launcher
 * created before clone, if it is a regular file of one link within its size cap. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "copyfd.h"
#include "copyout.h"
#include "status.h"

static void copy_out_one(const struct config *c, const struct copy_out *co)
{
	int in = openat(c->box_fd, co->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (in < 0) {
		const char *why = errno == ENOENT ? "missing"
				  : (errno == ELOOP || errno == ENXIO || errno == EISDIR) ? "not_regular"
											: "io_error";
		status_line("copyout_fail %s %s", co->name, why);
		return;
	}
	struct stat st;
	const char *why = NULL;
	if (fstat(in, &st) < 0)
		why = "io_error";
	else if (!S_ISREG(st.st_mode))
		why = "not_regular";
	else if (st.st_nlink != 1)
		why = "hardlinked";
	else if ((uint64_t)st.st_size > co->max)
		why = "too_large";
	uint64_t copied = 0;
	if (!why && copy_fd(in, co->fd, (uint64_t)st.st_size, &copied) < 0)
		why = "io_error";
	close(in);
	if (why) {
		if (copied && ftruncate(co->fd, 0) < 0) {
			/* the supervisor discards a failed copy-out anyway */
		}
		if (!strcmp(why, "too_large"))
			status_line("copyout_fail %s %s %llu", co->name, why, (unsigned long long)st.st_size);
		else
			status_line("copyout_fail %s %s", co->name, why);
		return;
	}
	status_line("copyout %s %llu", co->name, (unsigned long long)copied);
}

void copyouts_run(const struct config *c)
{
	for (size_t i = 0; i < c->n_copy_outs; i++)
		copy_out_one(c, &c->copy_outs[i]);
}
