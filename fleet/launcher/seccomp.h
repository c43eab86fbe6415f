/* The seccomp policy: an allow-list of x86-64 system calls (seccomp_policy.c) compiled into a
 * BPF filter (seccomp.c). docs/sandbox.md lists every entry with its reason. */
#ifndef CODECELL_SECCOMP_H
#define CODECELL_SECCOMP_H

#include <stddef.h>

/* Bumped whenever what the filter decides changes; fleet/src/sandbox/policy.ts says the same. */
#define SECCOMP_POLICY "allow-list/1"

enum sc_action {
	SC_ENOSYS,      /* the default: as on a kernel without the call */
	SC_ALLOW,
	SC_EPERM,       /* named refusals: the call exists, the run may not use it */
	SC_NOOP,        /* succeeds without the kernel acting (returns 0) */
	SC_CLONE,       /* allowed without any CLONE_NEW* flag, else EPERM */
	SC_SOCKET,      /* AF_UNIX; AF_INET/AF_INET6 stream or datagram over TCP/UDP */
	SC_SOCKETPAIR,  /* AF_UNIX only */
	SC_PERSONALITY, /* only PER_LINUX (0) and the query 0xffffffff */
	SC_SETRLIMIT,   /* anything but RLIMIT_CORE */
	SC_PRLIMIT,     /* RLIMIT_CORE may be read (new == NULL), not set */
};

struct sc_entry {
	unsigned nr;
	const char *name;
	enum sc_action act;
};

extern const struct sc_entry sc_policy[];
extern const size_t sc_policy_len;

const char *sc_action_name(enum sc_action act);
/* --print-policy: the version, then one "nr name action" line per listed call. */
int seccomp_print_policy(void);
/* The program child's last control before execve. */
int seccomp_install(void);

#endif
