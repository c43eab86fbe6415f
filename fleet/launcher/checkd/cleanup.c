/* The check server: after each check, no process and no file of it is left. The work dir keeps
 * what it held when the server started (the checker's prepared files, copied in again:
 * prepared.c); /tmp is emptied. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "prepared.h"
#include "tree.h"
#include "warm_client.h"

#define MAX_KEPT 4096
#define KILL_ROUNDS 10000

static char *kept[MAX_KEPT];
static size_t n_kept;
static mode_t box_mode;

int checkd_snapshot_box(void)
{
	struct stat st;
	DIR *dir = opendir(".");
	if (!dir || fstat(dirfd(dir), &st) < 0)
		return -1;
	box_mode = st.st_mode & 07777;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (n_kept == MAX_KEPT || !(kept[n_kept++] = strdup(e->d_name))) {
			closedir(dir);
			return -1;
		}
	}
	closedir(dir);
	return checkd_snapshot_prepared((const char *const *)kept, n_kept);
}

/* Reaps what has ended; sleeps a millisecond when nothing had. */
static void reap_some(void)
{
	int reaped = 0;
	while (waitpid(-1, NULL, __WALL | WNOHANG) > 0)
		reaped = 1;
	if (!reaped) {
		struct timespec pause = {0, 1000000};
		nanosleep(&pause, NULL);
	}
}

/* SIGKILL to every process of the pid namespace but init, this one and `keep`; 0 once none is left. */
static int kill_all_but(pid_t keep)
{
	for (int round = 0; round < KILL_ROUNDS; round++) {
		DIR *proc = opendir("/proc");
		if (!proc)
			return -1;
		int found = 0;
		struct dirent *e;
		while ((e = readdir(proc))) {
			char *end;
			long pid = strtol(e->d_name, &end, 10);
			if (*end || pid <= 1 || pid == getpid() || pid == keep)
				continue;
			if (kill((pid_t)pid, SIGKILL) == 0)
				found = 1;
		}
		closedir(proc);
		if (!found)
			return 0;
		reap_some();
	}
	return -1;
}

/* SIGKILL to every process but this one and init (kill(-1) in the sandbox's pid namespace) and
 * the warm checker, each reaped: orphans come to this process (a child subreaper), so all of them
 * are its children. */
int checkd_kill_leftovers(void)
{
	if (checkd_warm_pid() >= 0)
		return kill_all_but(checkd_warm_pid());
	for (int round = 0; round < KILL_ROUNDS; round++) {
		if (kill(-1, SIGKILL) < 0)
			return errno == ESRCH ? 0 : -1;
		reap_some();
	}
	return -1;
}

static int is_kept(const char *name)
{
	for (size_t i = 0; i < n_kept; i++)
		if (!strcmp(kept[i], name))
			return 1;
	return 0;
}

int checkd_clean_files(void)
{
	if (chmod(".", box_mode) < 0)
		return -1;
	int box = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (box < 0 || checkd_remove_entries(box, is_kept) < 0 || checkd_restore_prepared() < 0)
		return -1;
	return checkd_empty_dir("/tmp");
}
