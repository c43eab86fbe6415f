/* Program child: the seccomp filter, installed as the very last step before
 * execve (after no_new_privs). Classic BPF generated from the tables below.
 *
 *   arch != x86_64 (i386 via int 0x80, ...)        -> KILL_PROCESS
 *   nr has __X32_SYSCALL_BIT (x32 ABI)             -> KILL_PROCESS
 *   deny_eperm[]                                   -> ERRNO(EPERM)
 *   deny_enosys[] (AIO, inotify)                   -> ERRNO(ENOSYS)
 *   clone with any CLONE_NEW* flag                 -> ERRNO(EPERM)
 *   clone3 (flags in user memory, unreadable)      -> ERRNO(ENOSYS)  (glibc falls back to clone)
 *   socket/socketpair AF_NETLINK, AF_VSOCK         -> ERRNO(EAFNOSUPPORT)
 *   socket/socketpair with protocol IPPROTO_MPTCP  -> ERRNO(EPROTONOSUPPORT)
 *   everything else                                -> ALLOW
 *
 * The syscall rules are sorted by number and dispatched through a balanced
 * binary tree of JGE tests, built recursively; every jump offset is computed
 * by the generator from the length of the code it skips (never counted by
 * hand) and checked to fit the 8-bit jt/jf fields. A tree keeps the path of
 * an ordinary syscall short (~15 instructions instead of ~130), which matters
 * twice: at run time, and when the kernel pre-computes its per-syscall
 * "always allowed" cache by emulating the filter for every syscall number,
 * which made a linear filter cost ~130 us per seccomp() call here.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "launcher.h"

#ifndef __X32_SYSCALL_BIT
#define __X32_SYSCALL_BIT 0x40000000
#endif
#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif
/* Newer than the build headers may be (numbers are the x86_64 ABI, fixed forever). */
#ifndef __NR_open_tree_attr
#define __NR_open_tree_attr 467
#endif

static const int deny_eperm[] = {
	__NR_mount, __NR_umount2, __NR_pivot_root, __NR_chroot,
	__NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev, __NR_pidfd_getfd,
	__NR_kcmp, __NR_bpf, __NR_perf_event_open, __NR_userfaultfd,
	__NR_keyctl, __NR_add_key, __NR_request_key,
	__NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
	__NR_unshare, __NR_setns,
	__NR_kexec_load, __NR_kexec_file_load, __NR_init_module, __NR_finit_module, __NR_delete_module,
	__NR_reboot, __NR_swapon, __NR_swapoff, __NR_acct,
	__NR_open_by_handle_at, __NR_name_to_handle_at,
	__NR_fsopen, __NR_fsconfig, __NR_fsmount, __NR_fspick, __NR_move_mount, __NR_open_tree,
	__NR_mount_setattr, __NR_open_tree_attr,
	__NR_lookup_dcookie, __NR_syslog, __NR_quotactl, __NR_quotactl_fd,
	__NR_vhangup, __NR_iopl, __NR_ioperm, __NR_fanotify_init,
	__NR_settimeofday, __NR_clock_settime, __NR_clock_adjtime, __NR_adjtimex,
	__NR_sethostname, __NR_setdomainname, __NR_uselib, __NR_nfsservctl,
	__NR_modify_ldt, __NR_process_madvise,
};
#define N_DENY (sizeof deny_eperm / sizeof deny_eperm[0])

/* Host-wide kernel resources one run could exhaust or watch others through:
 * the AIO context quota (fs.aio-max-nr) and inotify on the shared read-only
 * toolchain mounts. ENOSYS, as on a kernel built without them, which every
 * runtime that uses them already handles. */
static const int deny_enosys[] = {
	__NR_io_setup, __NR_io_destroy, __NR_io_submit, __NR_io_cancel, __NR_io_getevents, __NR_io_pgetevents,
	__NR_inotify_init, __NR_inotify_init1, __NR_inotify_add_watch, __NR_inotify_rm_watch,
};
#define N_ENOSYS (sizeof deny_enosys / sizeof deny_enosys[0])

#define NS_FLAGS                                                                                     \
	(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET |  \
	 CLONE_NEWCGROUP | CLONE_NEWTIME)

#define LD_ARCH BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch))
#define LD_NR BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
/* Low 32 bits of args[0] (little endian). */
#define LD_ARG0 BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]))
#define LD_ARG2 BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2]))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define ERRNO(e) (SECCOMP_RET_ERRNO | ((e) & SECCOMP_RET_DATA))

enum action { ACT_EPERM, ACT_ENOSYS, ACT_CLONE, ACT_SOCKET };

struct rule {
	unsigned nr;
	enum action act;
};

#define N_RULES (N_DENY + N_ENOSYS + 4) /* + clone, clone3, socket, socketpair */
#define LEAF_RULES 4         /* subtrees this small are tested linearly */
#define PROLOGUE_LEN 6
#define ACTION_MAX_LEN 8 /* ACT_SOCKET */
/* Upper bound: every rule in a leaf (1 test + largest action), one JGE per
 * tree node, one RET ALLOW per leaf. */
#define FILTER_MAX (PROLOGUE_LEN + N_RULES * (1 + ACTION_MAX_LEN) + 2 * N_RULES + 1)
_Static_assert(FILTER_MAX <= BPF_MAXINSNS, "seccomp filter too long");

struct builder {
	struct sock_filter insn[FILTER_MAX];
	unsigned n;
	int bad; /* overflow or a jump that does not fit */
};

static void emit(struct builder *b, struct sock_filter f)
{
	if (b->n >= FILTER_MAX) {
		b->bad = 1;
		return;
	}
	b->insn[b->n++] = f;
}

static void emit_action(struct builder *b, enum action act);

/* The length of an action's code, measured by emitting it, never counted by hand. */
static unsigned action_len(enum action act)
{
	static struct builder scratch;
	scratch.n = 0;
	emit_action(&scratch, act);
	return scratch.n;
}

/* The code run once the syscall number matched; always ends in a RET, so the
 * accumulator may be clobbered. */
static void emit_action(struct builder *b, enum action act)
{
	switch (act) {
	case ACT_EPERM:
		emit(b, (struct sock_filter)RET(ERRNO(EPERM)));
		break;
	case ACT_ENOSYS:
		emit(b, (struct sock_filter)RET(ERRNO(ENOSYS)));
		break;
	case ACT_CLONE:
		emit(b, (struct sock_filter)LD_ARG0);
		emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, NS_FLAGS, 1, 0));
		emit(b, (struct sock_filter)RET(SECCOMP_RET_ALLOW));
		emit(b, (struct sock_filter)RET(ERRNO(EPERM)));
		break;
	case ACT_SOCKET:
		emit(b, (struct sock_filter)LD_ARG0);
		emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 4, 0));
		emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_VSOCK, 3, 0));
		emit(b, (struct sock_filter)LD_ARG2);
		emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IPPROTO_MPTCP, 2, 0));
		emit(b, (struct sock_filter)RET(SECCOMP_RET_ALLOW));
		emit(b, (struct sock_filter)RET(ERRNO(EAFNOSUPPORT)));
		emit(b, (struct sock_filter)RET(ERRNO(EPROTONOSUPPORT)));
		break;
	}
}

/* Rules [lo, hi) with the syscall number in the accumulator. */
static void emit_tree(struct builder *b, const struct rule *r, size_t lo, size_t hi)
{
	if (hi - lo <= LEAF_RULES) {
		for (size_t i = lo; i < hi; i++) {
			emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, r[i].nr, 0,
							     (unsigned char)action_len(r[i].act)));
			emit_action(b, r[i].act);
		}
		emit(b, (struct sock_filter)RET(SECCOMP_RET_ALLOW));
		return;
	}
	size_t mid = lo + (hi - lo) / 2;
	/* nr >= r[mid].nr ? right : left. The true branch skips the left subtree,
	 * whose length is only known once emitted: patch the jump afterwards. */
	unsigned at = b->n;
	emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, r[mid].nr, 0, 0));
	emit_tree(b, r, lo, mid);
	unsigned skip = b->n - at - 1;
	if (skip > 255)
		b->bad = 1;
	else if (at < FILTER_MAX)
		b->insn[at].jt = (unsigned char)skip;
	emit_tree(b, r, mid, hi);
}

static int rule_cmp(const void *a, const void *b)
{
	unsigned x = ((const struct rule *)a)->nr, y = ((const struct rule *)b)->nr;
	return x < y ? -1 : x > y;
}

int seccomp_install(void)
{
	static struct builder b;
	struct rule rules[N_RULES];
	size_t n = 0;

	for (size_t i = 0; i < N_DENY; i++)
		rules[n++] = (struct rule){(unsigned)deny_eperm[i], ACT_EPERM};
	for (size_t i = 0; i < N_ENOSYS; i++)
		rules[n++] = (struct rule){(unsigned)deny_enosys[i], ACT_ENOSYS};
	rules[n++] = (struct rule){__NR_clone, ACT_CLONE};
	rules[n++] = (struct rule){__NR_clone3, ACT_ENOSYS};
	rules[n++] = (struct rule){__NR_socket, ACT_SOCKET};
	rules[n++] = (struct rule){__NR_socketpair, ACT_SOCKET};
	qsort(rules, n, sizeof rules[0], rule_cmp);
	for (size_t i = 1; i < n; i++)
		if (rules[i].nr == rules[i - 1].nr)
			return fail(CTL_SECCOMP, EINVAL, "syscall %u listed twice", rules[i].nr);

	b.n = 0;
	b.bad = 0;
	/* Prologue: foreign architectures and the x32 ABI are killed outright. */
	emit(&b, (struct sock_filter)LD_ARCH);
	emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
	emit(&b, (struct sock_filter)RET(SECCOMP_RET_KILL_PROCESS));
	emit(&b, (struct sock_filter)LD_NR);
	emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, 0, 1));
	emit(&b, (struct sock_filter)RET(SECCOMP_RET_KILL_PROCESS));
	emit_tree(&b, rules, 0, n);

	if (b.bad)
		return fail(CTL_SECCOMP, E2BIG, "filter does not fit (%u instructions)", b.n);
	struct sock_fprog prog = {.len = (unsigned short)b.n, .filter = b.insn};
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return fail(CTL_SECCOMP, errno, "seccomp(SECCOMP_SET_MODE_FILTER)");
	return 0;
}
