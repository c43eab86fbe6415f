/* Program child: the seccomp filter, installed as the very last step before
 * execve (after no_new_privs). Classic BPF generated from the allow-list in
 * seccomp_policy.c:
 *
 *   arch != x86_64 (i386 via int 0x80, ...)        -> KILL_PROCESS
 *   nr has __X32_SYSCALL_BIT (x32 ABI)             -> KILL_PROCESS
 *   each listed call                               -> its action (seccomp.h)
 *   everything else                                -> ERRNO(ENOSYS)
 *
 * The syscall numbers are cut into intervals of equal action (runs of allowed
 * calls merge; gaps take the default) and dispatched through a balanced binary
 * tree of JGE tests on the interval starts, so an ordinary syscall passes about
 * ten instructions. Every jump offset is measured by the generator from the
 * code it skips (never counted by hand); a skip longer than the 8-bit jt field
 * goes through a BPF_JA, whose offset is 32-bit. A filter whose decision for a
 * call depends on the number only also lets the kernel pre-compute its
 * per-syscall "always allowed" cache, which the allowed calls then hit.
 * The filter is generated once, when the launcher starts; a run only installs it.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <netinet/in.h>

#include "seccomp.h"
#include "status.h"

#ifndef __X32_SYSCALL_BIT
#define __X32_SYSCALL_BIT 0x40000000
#endif
#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

#define NS_FLAGS                                                                                     \
	(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET |  \
	 CLONE_NEWCGROUP | CLONE_NEWTIME)
#define PER_QUERY 0xffffffffu

#define LD_ARCH BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch))
#define LD_NR BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
/* Low 32 bits of args[i] (little endian); the high half at +4. Every argument tested below is
 * an int to the kernel, except prlimit64's new-limit pointer, which is tested whole. */
#define ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#define LD_ARG(i) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(i))
#define LD_ARG_HI(i) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(i) + 4)
#define JEQ(k, t, f) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define ERRNO(e) (SECCOMP_RET_ERRNO | ((e) & SECCOMP_RET_DATA))
#define ALLOW RET(SECCOMP_RET_ALLOW)

#define MAX_INTERVALS 1024
#define FILTER_MAX BPF_MAXINSNS

struct interval {
	unsigned start; /* up to the next interval's start */
	enum sc_action act;
};

struct builder {
	struct sock_filter *insn; /* NULL: only count */
	unsigned n;
	int bad; /* overflow or a jump that does not fit */
};

static void emit(struct builder *b, struct sock_filter f)
{
	if (b->n >= FILTER_MAX) {
		b->bad = 1;
		return;
	}
	if (b->insn)
		b->insn[b->n] = f;
	b->n++;
}

static void emit_all(struct builder *b, const struct sock_filter *code, size_t len)
{
	for (size_t i = 0; i < len; i++)
		emit(b, code[i]);
}

/* The code run once the number is known; always ends in a RET, so the accumulator may be
 * clobbered. The jumps inside an action are local, over a few instructions of its own. */
static void emit_action(struct builder *b, enum sc_action act)
{
	static const struct sock_filter clone[] = {
		LD_ARG(0), BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, NS_FLAGS, 1, 0), ALLOW, RET(ERRNO(EPERM)),
	};
	/* AF_UNIX; AF_INET/AF_INET6 only as stream or datagram sockets of TCP or UDP (or protocol
	 * 0, which for these two types is TCP or UDP): no SCTP, DCCP, MPTCP, raw or ping sockets. */
	static const struct sock_filter socket[] = {
		LD_ARG(0), JEQ(AF_UNIX, 13, 0), JEQ(AF_INET, 2, 0), JEQ(AF_INET6, 1, 0),
		RET(ERRNO(EAFNOSUPPORT)),
		LD_ARG(1), BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xf), JEQ(SOCK_STREAM, 2, 0),
		JEQ(SOCK_DGRAM, 1, 0), RET(ERRNO(ESOCKTNOSUPPORT)),
		LD_ARG(2), JEQ(0, 3, 0), JEQ(IPPROTO_TCP, 2, 0), JEQ(IPPROTO_UDP, 1, 0),
		RET(ERRNO(EPROTONOSUPPORT)), ALLOW,
	};
	static const struct sock_filter socketpair[] = {
		LD_ARG(0), JEQ(AF_UNIX, 0, 1), ALLOW, RET(ERRNO(EAFNOSUPPORT)),
	};
	static const struct sock_filter personality[] = {
		LD_ARG(0), JEQ(0, 1, 0), JEQ(PER_QUERY, 0, 1), ALLOW, RET(ERRNO(EPERM)),
	};
	static const struct sock_filter setrlimit[] = {
		LD_ARG(0), JEQ(RLIMIT_CORE, 1, 0), ALLOW, RET(ERRNO(EPERM)),
	};
	/* prlimit64(pid, resource, new, old): RLIMIT_CORE only with new == NULL (a read). */
	static const struct sock_filter prlimit[] = {
		LD_ARG(1), JEQ(RLIMIT_CORE, 0, 5), LD_ARG(2), JEQ(0, 0, 2), LD_ARG_HI(2), JEQ(0, 1, 0),
		RET(ERRNO(EPERM)), ALLOW,
	};
#define EMIT(code) emit_all(b, code, sizeof code / sizeof code[0])
	switch (act) {
	case SC_ENOSYS: emit(b, (struct sock_filter)RET(ERRNO(ENOSYS))); break;
	case SC_ALLOW: emit(b, (struct sock_filter)ALLOW); break;
	case SC_EPERM: emit(b, (struct sock_filter)RET(ERRNO(EPERM))); break;
	case SC_NOOP: emit(b, (struct sock_filter)RET(ERRNO(0))); break;
	case SC_CLONE: EMIT(clone); break;
	case SC_SOCKET: EMIT(socket); break;
	case SC_SOCKETPAIR: EMIT(socketpair); break;
	case SC_PERSONALITY: EMIT(personality); break;
	case SC_SETRLIMIT: EMIT(setrlimit); break;
	case SC_PRLIMIT: EMIT(prlimit); break;
	}
#undef EMIT
}

/* The length of an action's code, measured by emitting it, never counted by hand. */
static unsigned action_len(enum sc_action act)
{
	struct builder count = {.insn = NULL};
	emit_action(&count, act);
	return count.n;
}

/* The length of emit_tree's code for intervals [lo, hi), computed the way it emits. */
static unsigned tree_len(const struct interval *iv, size_t lo, size_t hi)
{
	if (hi - lo == 1)
		return action_len(iv[lo].act);
	size_t mid = lo + (hi - lo) / 2;
	unsigned left = tree_len(iv, lo, mid);
	return 1 + (left > 255) + left + tree_len(iv, mid, hi);
}

/* Intervals [lo, hi) with the syscall number in the accumulator. */
static void emit_tree(struct builder *b, const struct interval *iv, size_t lo, size_t hi)
{
	if (hi - lo == 1) {
		emit_action(b, iv[lo].act);
		return;
	}
	size_t mid = lo + (hi - lo) / 2;
	unsigned left = tree_len(iv, lo, mid);
	/* nr >= iv[mid].start ? right : left; the right subtree follows the left one. */
	if (left <= 255) {
		emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, iv[mid].start, (unsigned char)left, 0));
	} else {
		emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, iv[mid].start, 0, 1));
		emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, left, 0, 0));
	}
	unsigned at = b->n;
	emit_tree(b, iv, lo, mid);
	if (b->n - at != left)
		b->bad = 1; /* the measure and the code disagree: never install such a filter */
	emit_tree(b, iv, mid, hi);
}

static int entry_cmp(const void *a, const void *b)
{
	unsigned x = ((const struct sc_entry *)a)->nr, y = ((const struct sc_entry *)b)->nr;
	return x < y ? -1 : x > y;
}

/* Sorted entries -> intervals covering [0, 2^32): runs of plain actions merge, gaps default.
 * 0, or a reason it cannot be done. */
static const char *build_intervals(const struct sc_entry *e, size_t n, struct interval *iv, size_t *out)
{
	size_t k = 0;
	unsigned next = 0; /* first number not yet covered */
	for (size_t i = 0; i <= n; i++) {
		unsigned nr = i < n ? e[i].nr : UINT32_MAX;
		if (i > 0 && i < n && nr == e[i - 1].nr)
			return "a system call is listed twice";
		if (nr > next && (k == 0 || iv[k - 1].act != SC_ENOSYS)) /* a gap: the default */
			iv[k++] = (struct interval){next, SC_ENOSYS};
		if (i == n)
			break;
		int plain = e[i].act == SC_ALLOW || e[i].act == SC_EPERM || e[i].act == SC_ENOSYS || e[i].act == SC_NOOP;
		if (!plain || k == 0 || iv[k - 1].act != e[i].act)
			iv[k++] = (struct interval){nr, e[i].act};
		next = nr + 1;
		if (k + 2 > MAX_INTERVALS)
			return "too many intervals";
	}
	*out = k;
	return 0;
}

/* The filter, generated once when the launcher starts (the zygote: once for all its runs), so
 * that a run's program child only hands it to the kernel. */
static struct {
	struct sock_filter insn[FILTER_MAX];
	unsigned len;
	const char *problem;
} prepared;

__attribute__((constructor)) static void seccomp_prepare(void)
{
	static struct sc_entry sorted[MAX_INTERVALS];
	static struct interval iv[MAX_INTERVALS];
	size_t n_iv = 0;

	if (sc_policy_len > MAX_INTERVALS) {
		prepared.problem = "policy too long";
		return;
	}
	memcpy(sorted, sc_policy, sc_policy_len * sizeof sorted[0]);
	qsort(sorted, sc_policy_len, sizeof sorted[0], entry_cmp);
	if ((prepared.problem = build_intervals(sorted, sc_policy_len, iv, &n_iv)))
		return;

	struct builder b = {.insn = prepared.insn};
	/* Prologue: foreign architectures and the x32 ABI are killed outright. */
	emit(&b, (struct sock_filter)LD_ARCH);
	emit(&b, (struct sock_filter)JEQ(AUDIT_ARCH_X86_64, 1, 0));
	emit(&b, (struct sock_filter)RET(SECCOMP_RET_KILL_PROCESS));
	emit(&b, (struct sock_filter)LD_NR);
	emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, 0, 1));
	emit(&b, (struct sock_filter)RET(SECCOMP_RET_KILL_PROCESS));
	emit_tree(&b, iv, 0, n_iv);
	if (b.bad)
		prepared.problem = "filter does not fit";
	else
		prepared.len = b.n;
}

int seccomp_install(void)
{
	if (prepared.problem || prepared.len == 0)
		return fail(CTL_SECCOMP, E2BIG, "%s", prepared.problem ? prepared.problem : "no filter");
	struct sock_fprog prog = {.len = (unsigned short)prepared.len, .filter = prepared.insn};
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return fail(CTL_SECCOMP, errno, "seccomp(SECCOMP_SET_MODE_FILTER)");
	return 0;
}
