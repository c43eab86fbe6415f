/* The seccomp allow-list, grouped as in docs/sandbox.md ("Seccomp"), which gives each group's
 * reason. A call not listed gets ENOSYS. Order does not matter: seccomp.c sorts. */
#include <stdio.h>
#include <sys/syscall.h>

#include "seccomp.h"

/* Newer than the build headers may be (x86-64 numbers are fixed forever). */
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_futex_wake
#define __NR_futex_wake 454
#endif
#ifndef __NR_futex_wait
#define __NR_futex_wait 455
#endif
#ifndef __NR_futex_requeue
#define __NR_futex_requeue 456
#endif
#ifndef __NR_open_tree_attr
#define __NR_open_tree_attr 467
#endif

#define A(n) {__NR_##n, #n, SC_ALLOW}
#define P(n) {__NR_##n, #n, SC_EPERM}
#define N(n) {__NR_##n, #n, SC_ENOSYS}
#define R(n, act) {__NR_##n, #n, act}

const struct sc_entry sc_policy[] = {
	/* files and descriptors */
	A(read), A(write), A(readv), A(writev), A(pread64), A(pwrite64), A(preadv), A(pwritev),
	A(preadv2), A(pwritev2), A(lseek), A(sendfile), A(copy_file_range), A(splice), A(tee),
	A(vmsplice), A(open), A(openat), A(openat2), A(creat), A(close), A(close_range), A(dup),
	A(dup2), A(dup3), A(fcntl), A(ioctl), A(flock), A(fsync), A(fdatasync), A(sync_file_range),
	A(fallocate), A(fadvise64), A(readahead), A(truncate), A(ftruncate), A(pipe), A(pipe2),
	A(stat), A(fstat), A(lstat), A(newfstatat), A(statx), A(statfs), A(fstatfs), A(access),
	A(faccessat), A(faccessat2), A(getdents), A(getdents64), A(getcwd), A(chdir), A(fchdir),
	A(mkdir), A(mkdirat), A(rmdir), A(rename), A(renameat), A(renameat2), A(link), A(linkat),
	A(unlink), A(unlinkat), A(symlink), A(symlinkat), A(readlink), A(readlinkat), A(mknod),
	A(mknodat), A(chmod), A(fchmod), A(fchmodat), A(fchmodat2), A(chown), A(fchown), A(lchown),
	A(fchownat), A(umask), A(utime), A(utimes), A(futimesat), A(utimensat), A(getxattr),
	A(lgetxattr), A(fgetxattr), A(listxattr), A(llistxattr), A(flistxattr), A(setxattr),
	A(lsetxattr), A(fsetxattr), A(removexattr), A(lremovexattr), A(fremovexattr),
	A(memfd_create),
	/* waiting on descriptors */
	A(poll), A(ppoll), A(select), A(pselect6), A(epoll_create), A(epoll_create1), A(epoll_ctl),
	A(epoll_wait), A(epoll_pwait), A(epoll_pwait2), A(eventfd), A(eventfd2), A(signalfd),
	A(signalfd4), A(timerfd_create), A(timerfd_settime), A(timerfd_gettime),
	/* memory */
	A(brk), A(mmap), A(munmap), A(mprotect), A(mremap), A(madvise), A(msync), A(mincore),
	A(mlock), A(mlock2), A(munlock), A(mlockall), A(munlockall), A(membarrier),
	A(pkey_mprotect), A(pkey_alloc), A(pkey_free), A(get_mempolicy), A(set_mempolicy), A(mbind),
	/* processes and threads */
	R(clone, SC_CLONE), A(fork), A(vfork), A(execve), A(execveat), A(exit), A(exit_group),
	A(wait4), A(waitid), A(set_tid_address), A(set_robust_list), A(futex),
	A(futex_waitv), A(futex_wake), A(futex_wait), A(futex_requeue), A(rseq), A(arch_prctl),
	A(prctl), A(sched_yield), A(sched_getaffinity), A(sched_setaffinity), A(sched_getparam),
	A(sched_setparam), A(sched_getscheduler), A(sched_setscheduler), A(sched_getattr),
	A(sched_setattr), A(sched_get_priority_max), A(sched_get_priority_min),
	A(sched_rr_get_interval), A(getpriority), A(setpriority), A(getcpu), A(pidfd_open),
	A(pidfd_send_signal), A(restart_syscall),
	/* identity and limits */
	A(getpid), A(getppid), A(gettid), A(getuid), A(geteuid), A(getgid), A(getegid),
	A(getresuid), A(getresgid), A(getgroups), A(setuid), A(setgid), A(setreuid), A(setregid),
	A(setresuid), A(setresgid), A(setgroups), A(setfsuid), A(setfsgid), A(capget),
	A(getpgrp), A(getpgid), A(setpgid), A(getsid), A(setsid), A(uname), A(sysinfo),
	A(getrandom), A(getrlimit), R(setrlimit, SC_SETRLIMIT), R(prlimit64, SC_PRLIMIT),
	A(getrusage), A(times), R(personality, SC_PERSONALITY),
	/* signals */
	A(rt_sigaction), A(rt_sigprocmask), A(rt_sigreturn), A(rt_sigpending),
	A(rt_sigtimedwait), A(rt_sigqueueinfo), A(rt_tgsigqueueinfo), A(rt_sigsuspend),
	A(sigaltstack), A(pause), A(kill), A(tkill), A(tgkill), A(alarm), A(getitimer),
	A(setitimer), A(timer_create), A(timer_settime), A(timer_gettime), A(timer_getoverrun),
	A(timer_delete),
	/* time */
	A(nanosleep), A(clock_nanosleep), A(clock_gettime), A(clock_getres), A(gettimeofday),
	A(time),
	/* sockets */
	R(socket, SC_SOCKET), R(socketpair, SC_SOCKETPAIR), A(connect), A(accept), A(accept4),
	A(bind), A(listen), A(shutdown), A(sendto), A(recvfrom), A(sendmsg), A(recvmsg),
	A(sendmmsg), A(recvmmsg), A(getsockname), A(getpeername), A(setsockopt), A(getsockopt),
	/* System V and POSIX IPC (the run's own IPC namespace) */
	A(shmget), A(shmat), A(shmdt), A(shmctl), A(semget), A(semop), A(semtimedop),
	A(semctl), A(msgget), A(msgsnd), A(msgrcv), A(msgctl), A(mq_open), A(mq_unlink),
	A(mq_timedsend), A(mq_timedreceive), A(mq_notify), A(mq_getsetattr),
	/* host-wide effects: accepted, without the kernel acting */
	R(sync, SC_NOOP), R(syncfs, SC_NOOP),
	/* refused by name with EPERM */
	P(mount), P(umount2), P(pivot_root), P(chroot), P(ptrace), P(process_vm_readv),
	P(process_vm_writev), P(pidfd_getfd), P(kcmp), P(bpf), P(perf_event_open), P(userfaultfd),
	P(keyctl), P(add_key), P(request_key), P(io_uring_setup), P(io_uring_enter),
	P(io_uring_register), P(unshare), P(setns), P(kexec_load), P(kexec_file_load),
	P(init_module), P(finit_module), P(delete_module), P(reboot), P(swapon), P(swapoff),
	P(acct), P(open_by_handle_at), P(name_to_handle_at), P(fsopen), P(fsconfig), P(fsmount),
	P(fspick), P(move_mount), P(open_tree), P(mount_setattr), P(open_tree_attr),
	P(lookup_dcookie), P(syslog), P(quotactl), P(quotactl_fd), P(vhangup), P(iopl), P(ioperm),
	P(fanotify_init), P(settimeofday), P(clock_settime), P(clock_adjtime), P(adjtimex),
	P(sethostname), P(setdomainname), P(uselib), P(nfsservctl), P(modify_ldt),
	P(process_madvise),
	/* refused by name with ENOSYS (the default, listed for the reason) */
	N(clone3), N(io_setup), N(io_destroy), N(io_submit), N(io_cancel), N(io_getevents),
	N(io_pgetevents), N(inotify_init), N(inotify_init1), N(inotify_add_watch),
	N(inotify_rm_watch),
};
const size_t sc_policy_len = sizeof sc_policy / sizeof sc_policy[0];

const char *sc_action_name(enum sc_action act)
{
	static const char *const names[] = {
		[SC_ENOSYS] = "ENOSYS",		[SC_ALLOW] = "allow",	    [SC_EPERM] = "EPERM",
		[SC_NOOP] = "no-op",		[SC_CLONE] = "clone-rule",   [SC_SOCKET] = "socket-rule",
		[SC_SOCKETPAIR] = "socketpair-rule", [SC_PERSONALITY] = "personality-rule",
		[SC_SETRLIMIT] = "setrlimit-rule", [SC_PRLIMIT] = "prlimit64-rule",
	};
	return names[act];
}

int seccomp_print_policy(void)
{
	printf("version %s\ndefault %s\n", SECCOMP_POLICY, sc_action_name(SC_ENOSYS));
	for (size_t i = 0; i < sc_policy_len; i++)
		printf("%u %s %s\n", sc_policy[i].nr, sc_policy[i].name, sc_action_name(sc_policy[i].act));
	return fflush(stdout) == 0 ? 0 : 1;
}
