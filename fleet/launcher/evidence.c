/* init, after the program (pid 2) has ended: what is left in the namespace is counted, killed
 * and reaped, and the run's end is reported (exit, wall time, file-size hits, leftovers, usage). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "evidence.h"
#include "rlimits.h"
#include "status.h"

#define WALK_MAX_ENTRIES 10000
#define WALK_MAX_DEPTH 16

static int is_pid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* Processes in the namespace other than init (zombies included). */
static unsigned count_processes(void)
{
	unsigned n = 0;
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (is_pid_name(e->d_name) && strcmp(e->d_name, "1"))
			n++;
	closedir(d);
	return n;
}

static void reap_all(int flags)
{
	for (;;) {
		pid_t p = waitpid(-1, NULL, flags);
		if (p > 0)
			continue;
		if (p < 0 && errno == EINTR)
			continue;
		break; /* ECHILD, or nothing ready with WNOHANG */
	}
}

/* Regular files of size >= LIMIT under DIR_FD; never follows a symlink. */
static unsigned walk_fsize(int dir_fd, int depth, rlim_t limit, unsigned *budget)
{
	unsigned hits = 0;
	DIR *d = fdopendir(dir_fd);
	if (!d) {
		close(dir_fd);
		return 0;
	}
	struct dirent *e;
	while (*budget > 0 && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		(*budget)--;
		if (e->d_type == DT_DIR) {
			if (depth + 1 >= WALK_MAX_DEPTH)
				continue;
			int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				hits += walk_fsize(sub, depth + 1, limit, budget);
			continue;
		}
		if (e->d_type != DT_REG && e->d_type != DT_UNKNOWN)
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    (rlim_t)st.st_size >= limit)
			hits++;
	}
	closedir(d);
	return hits;
}

static unsigned fsize_hits(const struct config *c)
{
	rlim_t limit = rlimits_fsize(c);
	if (limit == RLIM_INFINITY)
		return 0;
	unsigned budget = WALK_MAX_ENTRIES, hits = 0;
	int roots[2] = {c->box_fd, c->tmp_fd};
	for (int i = 0; i < 2; i++) {
		int fd = openat(roots[i], ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			hits += walk_fsize(fd, 0, limit, &budget);
	}
	return hits;
}

/* Everything else in the namespace: count, kill, reap. */
unsigned evidence_kill_leftovers(void)
{
	reap_all(WNOHANG); /* orphans that already exited are not "alive" */
	unsigned leftover = 0;
	if (kill(-1, 0) == 0) {
		leftover = count_processes();
		kill(-1, SIGKILL);
		reap_all(0);
	}
	return leftover;
}

void evidence_report(const struct config *c, int st, const struct timespec *t_go, const struct timespec *t_end,
		     unsigned fsize_attempts, unsigned leftover)
{
	if (WIFSIGNALED(st))
		status_line("exit signaled %d", WTERMSIG(st));
	else
		status_line("exit exited %d", WEXITSTATUS(st));
	status_line("wall %lld", (long long)(t_end->tv_sec - t_go->tv_sec) * 1000000 + (t_end->tv_nsec - t_go->tv_nsec) / 1000);
	status_line("ended_at %lld", (long long)t_end->tv_sec * 1000000 + t_end->tv_nsec / 1000);
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGXFSZ)
		status_line("fsize_hit %u", fsize_hits(c) + fsize_attempts);
	status_line("leftover %u", leftover);

	struct rusage ru;
	if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
		memset(&ru, 0, sizeof ru);
	status_line("usage %llu %llu %ld",
		    (unsigned long long)ru.ru_utime.tv_sec * 1000000ull + (unsigned long long)ru.ru_utime.tv_usec,
		    (unsigned long long)ru.ru_stime.tv_sec * 1000000ull + (unsigned long long)ru.ru_stime.tv_usec,
		    ru.ru_maxrss);
}
