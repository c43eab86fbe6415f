/* Program child: the seccomp filter, installed as the very last step before
 * execve (after no_new_privs). Classic BPF generated from the tables below:
 * every rule is a fixed-size block whose jumps stay inside the block, so no
 * offset is ever counted by hand.
 *
 *   arch != x86_64 (i386 via int 0x80, ...)        -> KILL_PROCESS
 *   nr has __X32_SYSCALL_BIT (x32 ABI)             -> KILL_PROCESS
 *   deny_eperm[]                                   -> ERRNO(EPERM)
 *   clone with any CLONE_NEW* flag                 -> ERRNO(EPERM)
 *   clone3 (flags in user memory, unreadable)      -> ERRNO(ENOSYS)  (glibc falls back to clone)
 *   socket/socketpair AF_NETLINK, AF_VSOCK         -> ERRNO(EAFNOSUPPORT)
 *   everything else                                -> ALLOW
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
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
};
#define N_DENY (sizeof deny_eperm / sizeof deny_eperm[0])

#define NS_FLAGS                                                                                     \
	(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET |  \
	 CLONE_NEWCGROUP | CLONE_NEWTIME)

#define LD_ARCH BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch))
#define LD_NR BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
/* Low 32 bits of args[0] (little endian). */
#define LD_ARG0 BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define ERRNO(e) (SECCOMP_RET_ERRNO | ((e) & SECCOMP_RET_DATA))

#define PROLOGUE_LEN 6
#define DENY_BLOCK_LEN 2
#define CLONE_BLOCK_LEN 5
#define CLONE3_BLOCK_LEN 2
#define SOCKET_BLOCK_LEN 6
#define FILTER_MAX                                                                                   \
	(PROLOGUE_LEN + N_DENY * DENY_BLOCK_LEN + CLONE_BLOCK_LEN + CLONE3_BLOCK_LEN +              \
	 2 * SOCKET_BLOCK_LEN + 1)
_Static_assert(FILTER_MAX <= BPF_MAXINSNS, "seccomp filter too long");

struct builder {
	struct sock_filter insn[FILTER_MAX];
	unsigned n;
	int overflow;
};

static void emit(struct builder *b, struct sock_filter f)
{
	if (b->n >= FILTER_MAX) {
		b->overflow = 1;
		return;
	}
	b->insn[b->n++] = f;
}

static void block_deny(struct builder *b, int nr, unsigned ret)
{
	emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1));
	emit(b, (struct sock_filter)RET(ret));
}

static void block_clone(struct builder *b)
{
	emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, CLONE_BLOCK_LEN - 1));
	emit(b, (struct sock_filter)LD_ARG0);
	emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, NS_FLAGS, 1, 0));
	emit(b, (struct sock_filter)RET(SECCOMP_RET_ALLOW));
	emit(b, (struct sock_filter)RET(ERRNO(EPERM)));
}

static void block_socket(struct builder *b, int nr)
{
	emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, SOCKET_BLOCK_LEN - 1));
	emit(b, (struct sock_filter)LD_ARG0);
	emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 2, 0));
	emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_VSOCK, 1, 0));
	emit(b, (struct sock_filter)RET(SECCOMP_RET_ALLOW));
	emit(b, (struct sock_filter)RET(ERRNO(EAFNOSUPPORT)));
}

int seccomp_install(void)
{
	static struct builder b;
	b.n = 0;
	b.overflow = 0;

	/* Prologue: foreign architectures and the x32 ABI are killed outright. */
	emit(&b, (struct sock_filter)LD_ARCH);
	emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
	emit(&b, (struct sock_filter)RET(SECCOMP_RET_KILL_PROCESS));
	emit(&b, (struct sock_filter)LD_NR);
	emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, 0, 1));
	emit(&b, (struct sock_filter)RET(SECCOMP_RET_KILL_PROCESS));

	for (size_t i = 0; i < N_DENY; i++)
		block_deny(&b, deny_eperm[i], ERRNO(EPERM));
	block_clone(&b);
	block_deny(&b, __NR_clone3, ERRNO(ENOSYS));
	block_socket(&b, __NR_socket);
	block_socket(&b, __NR_socketpair);
	emit(&b, (struct sock_filter)RET(SECCOMP_RET_ALLOW));

	if (b.overflow)
		return fail(CTL_SECCOMP, E2BIG, "filter longer than %d instructions", (int)FILTER_MAX);
	struct sock_fprog prog = {.len = (unsigned short)b.n, .filter = b.insn};
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return fail(CTL_SECCOMP, errno, "seccomp(SECCOMP_SET_MODE_FILTER)");
	return 0;
}
