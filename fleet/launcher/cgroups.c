/* Program child: join the run's cgroups through the cgroup.procs fds the
 * launcher opened (O_WRONLY|O_CLOEXEC) before clone, while the host paths were
 * still visible. "0" means the writing process itself (cgroup v1 and v2), so
 * only the program and its descendants are ever in the run's cgroups. */
#include <errno.h>
#include <unistd.h>

#include "launcher.h"

int cgroups_join(const struct config *c)
{
	for (size_t i = 0; i < c->n_cgroups; i++) {
		ssize_t n;
		do
			n = write(c->cgroup_fds[i], "0", 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			return fail(CTL_CGROUP, n < 0 ? errno : EIO, "join %s", c->cgroup_paths[i]);
	}
	return 0;
}
