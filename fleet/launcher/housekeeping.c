/* The node's housekeeping CPUs (--serve SOCKET --housekeeping-cpus LIST): the CPUs of the node's
 * cpuset that no slot has to itself, where the node's own process mostly runs. A run's launcher
 * moves to its slot's CPUs before clone (run.c, --cpus) and moves here once "done" is written:
 * what is left of the run then (reaping init, the launcher's exit, the teardown of the run's mount
 * namespace and the RCU work it queues) is done here, not on the slot's core while the slot's next
 * run is set up on it.
 * The zygote does the opposite and keeps off these CPUs: a request wakes it while the node that
 * wrote it still holds its CPU, so on the node's CPU it waits for the node's next sleep before it
 * can hand the request over. Its spares wait on their runs' own CPUs (spares.c).
 * Without the option (every core is a slot's, or the slots share them all) nothing moves: a run's
 * teardown stays on its slot's own CPUs, off its neighbours'. */
#include <sched.h>
#include <string.h>

#include "args.h"
#include "housekeeping.h"

static cpu_set_t g_housekeeping;
static int g_has_housekeeping;

int housekeeping_set(const char *list)
{
	char copy[4096];
	if (strlen(list) >= sizeof copy)
		return -1;
	strcpy(copy, list); /* parsing cuts it up; the command line stays as given */
	if (parse_cpu_list(copy, &g_housekeeping) < 0)
		return -1;
	g_has_housekeeping = 1;
	return 0;
}

void housekeeping_move(void)
{
	if (g_has_housekeeping && sched_setaffinity(0, sizeof g_housekeeping, &g_housekeeping) < 0) {
		/* a CPU the node no longer has: the rest is done on the slot's core, only slower */
	}
}

void housekeeping_avoid(void)
{
	cpu_set_t mine;
	if (!g_has_housekeeping || sched_getaffinity(0, sizeof mine, &mine) < 0)
		return;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &g_housekeeping))
			CPU_CLR(cpu, &mine);
	if (CPU_COUNT(&mine) > 0 && sched_setaffinity(0, sizeof mine, &mine) < 0) {
		/* the zygote then stays where it was: only slower */
	}
}
