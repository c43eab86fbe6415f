/* The zygote's spare children (zygote.c, PROTOCOL.md): one for each set of CPUs the requests name
 * (their --cpus value, "" for none), waiting on those CPUs so that the run it takes starts where it
 * runs, with no migration at its request. With dedicated cores that is one spare per slot, on the
 * slot's core. A set's next spare is forked once the run that took the last one is over. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "launcher.h"
#include "zygote.h"

#define CPUS_MAX 64

struct spare {
	int requests; /* the write end of its request pipe; -1: no spare */
	int run_over; /* the read end of its run-over pipe: readable (EOF) once its run is over */
};

struct cpu_set_spare {
	char cpus[CPUS_MAX];
	struct spare spare;
	int busy; /* run-over pipe of the run that took the last spare, until that run is over */
};

static struct cpu_set_spare g_sets[MAX_CPU_SETS];
static size_t g_n_sets;

/* A spare holds no other spare's pipes: each one's EOF must come when the zygote is gone. */
static void close_other_spares(const struct cpu_set_spare *mine)
{
	for (size_t i = 0; i < g_n_sets; i++) {
		const struct cpu_set_spare *set = &g_sets[i];
		if (set == mine)
			continue;
		const int fds[] = {set->spare.requests, set->spare.run_over, set->busy};
		for (size_t k = 0; k < sizeof fds / sizeof fds[0]; k++)
			if (fds[k] >= 0)
				close(fds[k]);
	}
}

/* The spare's end: its CPUs, its request, read from its own pipe, and then the run. */
static int spare_main(const struct cpu_set_spare *set, int requests, int run_over, const char *socket_path, char *args_start,
		      char *args_end)
{
	g_run_over_fd = high(run_over); /* above 0-4, which child_run wires */
	close_pair(); /* a pair's pipe ends waiting in the zygote are not the spare's to hold */
	close_other_spares(set);
	if (set->busy >= 0)
		close(set->busy);
	char cpus[CPUS_MAX];
	cpu_set_t mask;
	memcpy(cpus, set->cpus, sizeof cpus);
	if (cpus[0] && parse_cpu_list(cpus, &mask) == 0 && sched_setaffinity(0, sizeof mask, &mask) < 0) {
		/* the run's launcher takes its CPUs itself (--cpus) and reports a failure */
	}
	char comm[16] = {0};
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	prctl(PR_SET_NAME, "codecell-spare", 0, 0, 0); /* what ps shows while it waits */
	uint32_t len;
	if (read_full(requests, &len, sizeof len) < 0 || len == 0 || len > MAX_REQUEST)
		return 1; /* the zygote is gone or closing */
	char *request = malloc(len);
	if (!request || read_full(requests, request, len) < 0)
		return 1;
	close(requests);
	prctl(PR_SET_NAME, comm, 0, 0, 0);
	return child_run(socket_path, request, len, args_start, args_end);
}

/* A new spare child for SET (none when it cannot be made: requests are then forked for). */
static struct spare fork_spare(const struct cpu_set_spare *set, const char *socket_path, char *args_start, char *args_end)
{
	struct spare s = {-1, -1};
	int p[2], over[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return s;
	if (pipe2(over, O_CLOEXEC) < 0) {
		close(p[0]);
		close(p[1]);
		return s;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(p[1]);
		close(over[0]);
		_exit(spare_main(set, p[0], over[1], socket_path, args_start, args_end));
	}
	close(p[0]);
	close(over[1]);
	if (pid < 0) {
		close(p[1]);
		close(over[0]);
		return s;
	}
	s.requests = p[1];
	s.run_over = over[0];
	return s;
}

/* The --cpus value of a request's arguments ("" without one; NULL if too long to be a key). */
static const char *request_cpus(const char *request, size_t len)
{
	const char *end = request + len;
	const char *field = request;
	for (int n = 0; field < end; n++) {
		size_t flen = strnlen(field, (size_t)(end - field));
		const char *next = field + flen + 1;
		if (n >= 2 && flen == strlen("--cpus") && !memcmp(field, "--cpus", flen) && next < end)
			return strnlen(next, (size_t)(end - next)) < CPUS_MAX ? next : NULL;
		field = next;
	}
	return "";
}

/* The spare set of a request's CPUs, made at its first request; NULL when the table is full. */
static struct cpu_set_spare *set_for(const char *request, size_t len)
{
	const char *cpus = request_cpus(request, len);
	if (!cpus)
		return NULL;
	for (size_t i = 0; i < g_n_sets; i++)
		if (!strcmp(g_sets[i].cpus, cpus))
			return &g_sets[i];
	if (g_n_sets == MAX_CPU_SETS)
		return NULL;
	struct cpu_set_spare *set = &g_sets[g_n_sets++];
	strcpy(set->cpus, cpus);
	set->spare = (struct spare){-1, -1};
	set->busy = -1;
	return set;
}

/* Hands a request to the spare; 0 once it has it. */
static int hand_to_spare(int spare, const char *request, uint32_t len)
{
	if (spare < 0)
		return -1;
	int sent = write_full(spare, (const char *)&len, sizeof len) == 0 && write_full(spare, request, len) == 0;
	close(spare);
	return sent ? 0 : -1;
}

/* The request to SET's spare, forked for now if none waits; 0 once it has it. The set's next
 * spare is forked once this run is over. */
static int hand_to_set(struct cpu_set_spare *set, const char *request, uint32_t len, const char *socket_path,
		       char *args_start, char *args_end)
{
	if (set->spare.requests < 0)
		set->spare = fork_spare(set, socket_path, args_start, args_end);
	if (set->spare.requests < 0)
		return -1;
	int handed = hand_to_spare(set->spare.requests, request, len);
	if (set->busy >= 0)
		close(set->busy);
	set->busy = set->spare.run_over;
	set->spare = (struct spare){-1, -1};
	return handed;
}

size_t spares_refill(struct pollfd *p, const char *socket_path, char *args_start, char *args_end)
{
	for (size_t i = 0; i < g_n_sets; i++) {
		struct cpu_set_spare *set = &g_sets[i];
		if (set->spare.requests < 0 && set->busy < 0)
			set->spare = fork_spare(set, socket_path, args_start, args_end);
		p[i] = (struct pollfd){.fd = set->busy, .events = POLLIN};
	}
	return g_n_sets;
}

void spares_runs_over(const struct pollfd *p)
{
	for (size_t i = 0; i < g_n_sets; i++) {
		if (p[i].revents) {
			close(g_sets[i].busy);
			g_sets[i].busy = -1;
		}
	}
}

int spares_take(const char *request, uint32_t len, const char *socket_path, char *args_start, char *args_end)
{
	struct cpu_set_spare *set = set_for(request, len);
	return set ? hand_to_set(set, request, len, socket_path, args_start, args_end) : -1;
}
