/* init: evidence that a call went past the file-size limit without growing a file.
 *
 * A write past RLIMIT_FSIZE leaves a file at the limit, which the scan after the run finds. A
 * ftruncate, truncate or fallocate past it fails whole (EFBIG, SIGXFSZ) and leaves nothing. So
 * init installs, on itself just before forking the program (every process of the run inherits
 * it), a filter that sends exactly those calls to a seccomp user-notification listener when their
 * new size is above the limit. init counts them and lets the kernel carry each one out
 * (SECCOMP_USER_NOTIF_FLAG_CONTINUE): the kernel still enforces the limit and sends SIGXFSZ; the
 * count only proves the call was made. Calls within the limit never leave the kernel. init itself
 * makes none of these calls after installing it (it would wait on itself).
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "config.h"
#include "fsize.h"
#include "rlimits.h"
#include "status.h"

#define ARG_LO(n) (offsetof(struct seccomp_data, args[n]))
#define ARG_HI(n) (offsetof(struct seccomp_data, args[n]) + 4)

/* Jump targets, resolved once the code is laid out (never counted by hand). */
enum label { NEXT = -1, ALLOW = 0, NOTIFY, SIZE_ARG1, FALLOCATE, N_LABELS };

struct insn {
	struct sock_filter f;
	int jt, jf;  /* labels, or NEXT */
	int defines; /* this instruction starts label (or -1) */
};

#define OP(code, k) {BPF_STMT((code), (k)), NEXT, NEXT, -1}
#define JMP(code, k, t, f) {BPF_JUMP(BPF_JMP | (code) | BPF_K, (k), 0, 0), (t), (f), -1}
#define AT(label, code, k) {BPF_STMT((code), (k)), NEXT, NEXT, (label)}

static int resolve(const struct insn *in, size_t n, struct sock_filter *out)
{
	int at[N_LABELS];
	for (int l = 0; l < N_LABELS; l++)
		at[l] = -1;
	for (size_t i = 0; i < n; i++)
		if (in[i].defines >= 0)
			at[in[i].defines] = (int)i;
	for (size_t i = 0; i < n; i++) {
		out[i] = in[i].f;
		if (BPF_CLASS(in[i].f.code) != BPF_JMP)
			continue;
		int targets[2] = {in[i].jt, in[i].jf};
		unsigned char *fields[2] = {&out[i].jt, &out[i].jf};
		for (int k = 0; k < 2; k++) {
			int to = targets[k] == NEXT ? (int)i + 1 : at[targets[k]];
			int off = to - (int)i - 1;
			if (to < 0 || off < 0 || off > 255)
				return -1;
			*fields[k] = (unsigned char)off;
		}
	}
	return 0;
}

/* Returns the listener fd, or -1 after reporting a failure; -2 when there is no limit to watch. */
int fsize_watch_install(const struct config *c)
{
	rlim_t limit = rlimits_fsize(c);
	if (limit == RLIM_INFINITY)
		return -2;
	/* Sizes are compared as 32-bit halves, and offset + len summed in 32 bits once each is
	 * known to be at most the limit: the limit must stay below 2^31. */
	if (limit >= 0x7fffffff)
		return fail(CTL_RLIMITS, EINVAL, "file-size limit %llu too large for the file-size watch", (unsigned long long)limit);
	const unsigned lim = (unsigned)limit;
	const struct insn code[] = {
		OP(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		JMP(BPF_JEQ, AUDIT_ARCH_X86_64, NEXT, ALLOW),
		OP(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		JMP(BPF_JEQ, __NR_ftruncate, SIZE_ARG1, NEXT),
		JMP(BPF_JEQ, __NR_truncate, SIZE_ARG1, NEXT),
		JMP(BPF_JEQ, __NR_fallocate, FALLOCATE, ALLOW),
		/* (f)truncate(_, length): length above the limit */
		AT(SIZE_ARG1, BPF_LD | BPF_W | BPF_ABS, ARG_HI(1)),
		JMP(BPF_JEQ, 0, NEXT, NOTIFY),
		OP(BPF_LD | BPF_W | BPF_ABS, ARG_LO(1)),
		JMP(BPF_JGT, lim, NOTIFY, ALLOW),
		/* fallocate(_, mode, offset, len): offset + len above the limit, whatever the mode (the
		 * count matters only when the kernel's SIGXFSZ ended the program) */
		AT(FALLOCATE, BPF_LD | BPF_W | BPF_ABS, ARG_HI(2)),
		JMP(BPF_JEQ, 0, NEXT, NOTIFY),
		OP(BPF_LD | BPF_W | BPF_ABS, ARG_HI(3)),
		JMP(BPF_JEQ, 0, NEXT, NOTIFY),
		OP(BPF_LD | BPF_W | BPF_ABS, ARG_LO(3)),
		JMP(BPF_JGT, lim, NOTIFY, NEXT),
		OP(BPF_ST, 0),
		OP(BPF_LDX | BPF_W | BPF_MEM, 0),
		OP(BPF_LD | BPF_W | BPF_ABS, ARG_LO(2)),
		JMP(BPF_JGT, lim, NOTIFY, NEXT),
		OP(BPF_ALU | BPF_ADD | BPF_X, 0),
		JMP(BPF_JGT, lim, NOTIFY, ALLOW),
		AT(ALLOW, BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		AT(NOTIFY, BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	};
	enum { N = sizeof code / sizeof code[0] };
	struct sock_filter filter[N];
	if (resolve(code, N, filter) < 0)
		return fail(CTL_RLIMITS, EINVAL, "file-size watch: a jump does not resolve");
	struct sock_fprog prog = {.len = N, .filter = filter};
	int fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (fd < 0)
		return fail(CTL_RLIMITS, errno, "file-size watch: seccomp user notification");
	return fd;
}

/* One notification: a call past the limit was made. Counted, then carried out by the kernel. */
unsigned fsize_watch_serve(int fd)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	memset(&req, 0, sizeof req);
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
		return 0; /* the caller died meanwhile, or EINTR: poll again */
	memset(&resp, 0, sizeof resp);
	resp.id = req.id;
	resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp) < 0) {
		/* the caller was killed meanwhile: the call still happened in its attempt */
	}
	return 1;
}
