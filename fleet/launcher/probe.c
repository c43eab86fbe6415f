/* --probe-ia32: does this kernel accept the i386 system-call entry (int $0x80) from a 64-bit
 * process? Kernels built without IA32 emulation, or booted with it disabled, fault the
 * instruction (SIGSEGV) before any filter runs; elsewhere the call reaches seccomp, whose filter
 * kills the process (SIGSYS). The node records which mechanism stops such calls on this kernel. */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe.h"

#define I386_GETPID 20L

int probe_ia32(void)
{
	pid_t child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		long ret;
		__asm__ volatile("int $0x80" : "=a"(ret) : "a"(I386_GETPID) : "memory");
		_exit(ret == (long)getpid() ? 0 : 3);
	}
	int status;
	if (waitpid(child, &status, 0) != child)
		return 1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		puts("reaches_kernel");
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
		puts("refused_by_kernel");
	else
		return 1;
	return 0;
}
