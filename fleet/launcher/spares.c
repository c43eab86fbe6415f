/* The zygote's spare children (zygote.c, PROTOCOL.md). For each set of CPUs the requests name
 * (their --cpus value, "" for none) two spares wait on those CPUs, each already connected to the
 * supervisor: its out, err and ctl streams under a token of its own, and "spare CPUS" on the ctl
 * stream. The supervisor writes a run's request straight to a waiting spare's ctl stream, so a
 * run starts with neither a hop through the zygote nor its connects. A set is made at the first
 * request the zygote gets for it (forked for at once); a spare is replaced once its run is over
 * (its launcher closes the run-over pipe after "done"). A spare that ends without a run (the
 * supervisor closed its streams) is not replaced until the zygote gets its set's next request. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <unistd.h>

#include "args.h"
#include "child.h"
#include "copyfd.h"
#include "request.h"
#include "run.h"
#include "spares.h"

#define CPUS_MAX 64
#define SPARES_PER_SET 2

struct spare {
	int run_over; /* the read end of its run-over pipe; -1: none (one is forked) */
	int taken;    /* it has said it took a request ("r" on that pipe) */
};

struct cpu_set_spares {
	char cpus[CPUS_MAX];
	int dormant; /* a spare ended without a run: none is forked until the set's next request */
	struct spare spares[SPARES_PER_SET];
};

static struct cpu_set_spares g_sets[MAX_CPU_SETS];
static size_t g_n_sets;

/* A spare holds no other spare's pipe. */
static void close_other_spares(int mine)
{
	for (size_t i = 0; i < g_n_sets; i++)
		for (int k = 0; k < SPARES_PER_SET; k++)
			if (g_sets[i].spares[k].run_over >= 0 && g_sets[i].spares[k].run_over != mine)
				close(g_sets[i].spares[k].run_over);
}

/* A token of the spare's own, in the form of a request's nonce. */
static int spare_token(char token[NONCE_LEN + 1])
{
	unsigned char bytes[NONCE_LEN / 2];
	if (getrandom(bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes)
		return -1;
	for (size_t i = 0; i < sizeof bytes; i++)
		snprintf(token + 2 * i, 3, "%02x", bytes[i]);
	return 0;
}

/* Its three connections, announced with its CPUs on the ctl one. */
static int connect_spare(const char *socket_path, const char *cpus, int fds[3])
{
	char token[NONCE_LEN + 1];
	char announce[CPUS_MAX + 8];
	if (spare_token(token) < 0)
		return -1;
	fds[0] = connect_stream(socket_path, token, "out");
	fds[1] = fds[0] < 0 ? -1 : connect_stream(socket_path, token, "err");
	fds[2] = fds[1] < 0 ? -1 : connect_stream(socket_path, token, "ctl");
	int n = snprintf(announce, sizeof announce, "spare %s\n", cpus);
	return fds[2] < 0 || write_full(fds[2], announce, (size_t)n) < 0 ? -1 : 0;
}

/* The spare: on its CPUs, connected, it waits for its request on the ctl stream, then runs it. */
static int spare_main(const struct cpu_set_spares *set, int run_over, const char *socket_path, char *args_start,
		      char *args_end)
{
	pid_t zygote = getppid();
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != zygote)
		return 1;
	g_run_over_fd = high(run_over); /* above 0-4, which child_run wires */
	close_pair(); /* a pair's pipe ends waiting in the zygote are not the spare's to hold */
	close_other_spares(-1);
	char cpus[CPUS_MAX];
	cpu_set_t mask;
	memcpy(cpus, set->cpus, sizeof cpus);
	if (cpus[0] && parse_cpu_list(cpus, &mask) == 0 && sched_setaffinity(0, sizeof mask, &mask) < 0) {
		/* the run's launcher takes its CPUs itself (--cpus) and reports a failure */
	}
	char comm[16] = {0};
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	prctl(PR_SET_NAME, "codecell-spare", 0, 0, 0); /* what ps shows while it waits */
	int fds[3];
	uint32_t len;
	if (connect_spare(socket_path, set->cpus, fds) < 0 || read_full(fds[2], &len, sizeof len) < 0 || len == 0 ||
	    len > MAX_REQUEST)
		return 1; /* the supervisor is gone or closing */
	char *request = malloc(len);
	if (!request || read_full(fds[2], request, len) < 0)
		return 1;
	if (write(g_run_over_fd, "r", 1) != 1)
		return 1;
	prctl(PR_SET_NAME, comm, 0, 0, 0);
	return child_run(socket_path, request, len, fds, args_start, args_end);
}

/* A new spare of SET: the read end of its run-over pipe, or -1 when it cannot be made. */
static int fork_spare(const struct cpu_set_spares *set, const char *socket_path, char *args_start, char *args_end)
{
	int over[2];
	if (pipe2(over, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(over[0]);
		_exit(spare_main(set, over[1], socket_path, args_start, args_end));
	}
	close(over[1]);
	if (pid < 0) {
		close(over[0]);
		return -1;
	}
	return over[0];
}

void spares_want(const char *request, size_t len)
{
	const char *cpus = request_value(request, len, "--cpus", NULL);
	if (!cpus)
		cpus = ""; /* the set of runs without --cpus */
	if (strlen(cpus) >= CPUS_MAX)
		return; /* too long to be a key: forked for at each request */
	for (size_t i = 0; i < g_n_sets; i++) {
		if (!strcmp(g_sets[i].cpus, cpus)) {
			g_sets[i].dormant = 0;
			return;
		}
	}
	if (g_n_sets == MAX_CPU_SETS)
		return;
	struct cpu_set_spares *set = &g_sets[g_n_sets++];
	strcpy(set->cpus, cpus);
	set->dormant = 0;
	for (int k = 0; k < SPARES_PER_SET; k++)
		set->spares[k] = (struct spare){-1, 0};
}

size_t spares_refill(struct pollfd *p, const char *socket_path, char *args_start, char *args_end)
{
	size_t n = 0;
	for (size_t i = 0; i < g_n_sets; i++) {
		for (int k = 0; k < SPARES_PER_SET; k++) {
			struct spare *s = &g_sets[i].spares[k];
			if (s->run_over < 0 && !g_sets[i].dormant)
				*s = (struct spare){fork_spare(&g_sets[i], socket_path, args_start, args_end), 0};
			p[n++] = (struct pollfd){.fd = s->run_over, .events = POLLIN};
		}
	}
	return n;
}

void spares_events(const struct pollfd *p)
{
	size_t n = 0;
	for (size_t i = 0; i < g_n_sets; i++) {
		for (int k = 0; k < SPARES_PER_SET; k++, n++) {
			struct spare *s = &g_sets[i].spares[k];
			if (!p[n].revents || s->run_over < 0)
				continue;
			char byte;
			ssize_t r = read(s->run_over, &byte, 1);
			if (r == 1 || (r < 0 && errno == EINTR)) {
				s->taken |= r == 1; /* taken: its run is over at EOF */
				continue;
			}
			close(s->run_over);
			g_sets[i].dormant |= !s->taken;
			*s = (struct spare){-1, 0};
		}
	}
}
