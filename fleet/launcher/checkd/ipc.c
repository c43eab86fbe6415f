/* The check server: no IPC object of one check is left for the next. System V shared memory,
 * message queues and semaphore sets (the run's own IPC namespace, listed in /proc/sysvipc) are
 * removed after each check, and /dev/shm (POSIX shared memory and named semaphores) is emptied.
 * POSIX message queues cannot be listed without mounting their file system, which the server
 * cannot: so checks get none (mq_open fails with ENOSYS, a filter of the server's own, stacked on
 * the sandbox's and inherited by every check). */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "ipc.h"
#include "tree.h"

#define NR_MQ_OPEN_X86_64 240
#define NR_MQ_OPEN_I386 277

int checkd_refuse_mqueues(void)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 2),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_MQ_OPEN_X86_64, 4, 5),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_MQ_OPEN_I386, 1, 2),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW), /* not reached */
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = sizeof code / sizeof code[0], .filter = code};
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0); /* the sandbox's policy has prctl, not seccomp */
}

/* Every object listed in /proc/sysvipc/NAME (its id is the second column), removed. */
static int remove_listed(const char *name, int (*remove)(int id))
{
	char path[64], line[512];
	snprintf(path, sizeof path, "/proc/sysvipc/%s", name);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	int rc = 0;
	if (!fgets(line, sizeof line, f)) /* the header */
		rc = -1;
	while (rc == 0 && fgets(line, sizeof line, f)) {
		long key;
		int id;
		if (sscanf(line, "%ld %d", &key, &id) != 2 || (remove(id) < 0 && errno != EINVAL && errno != EIDRM))
			rc = -1;
	}
	fclose(f);
	return rc;
}

static int remove_shm(int id)
{
	return shmctl(id, IPC_RMID, NULL);
}

static int remove_msg(int id)
{
	return msgctl(id, IPC_RMID, NULL);
}

static int remove_sem(int id)
{
	return semctl(id, 0, IPC_RMID);
}

int checkd_clean_ipc(void)
{
	if (remove_listed("shm", remove_shm) < 0 || remove_listed("msg", remove_msg) < 0 || remove_listed("sem", remove_sem) < 0)
		return -1;
	return checkd_empty_dir("/dev/shm");
}
