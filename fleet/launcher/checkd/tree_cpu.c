/* The check server: a check's CPU time counted with its children's. While a check runs, every
 * process in the run's pid namespace but init, the server and the warm checker is the check's
 * (the last check's were all killed and reaped), and each process a check reaped is in its
 * parent's cutime/cstime; orphans become the server's children and stay zombies, still listed,
 * until the server reaps them after the check. So the sum of utime, stime, cutime and cstime over
 * /proc is the check's CPU time, its children's and theirs included. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../proc_file.h"
#include "tree_cpu.h"
#include "warm_client.h"

/* utime + stime + cutime + cstime of one process, in clock ticks; 0 when it is gone. */
static uint64_t ticks_of(long pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (read_proc_file(path, buf, sizeof buf) <= 0)
		return 0;
	char *p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
	if (!p)
		return 0;
	unsigned long long v[15] = {0};
	int field = 0;
	for (char *tok = strtok(p + 1, " "); tok && field < 15; tok = strtok(NULL, " "))
		v[field++] = strtoull(tok, NULL, 10);
	return field == 15 ? v[11] + v[12] + v[13] + v[14] : 0; /* fields 14-17 of proc(5) */
}

uint64_t checkd_tree_cpu_usec(void)
{
	static long tick_usec;
	if (!tick_usec)
		tick_usec = 1000000 / sysconf(_SC_CLK_TCK);
	DIR *proc = opendir("/proc");
	if (!proc)
		return 0;
	uint64_t ticks = 0;
	struct dirent *e;
	while ((e = readdir(proc))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 1 || pid == getpid() || pid == checkd_warm_pid())
			continue;
		ticks += ticks_of(pid);
	}
	closedir(proc);
	return ticks * (uint64_t)tick_usec;
}
