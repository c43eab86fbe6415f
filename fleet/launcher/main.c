/* codecell-launcher: its modes. A run (run.c), the zygote that forks runs (zygote.c), and the
 * small helper modes below. See PROTOCOL.md. */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "housekeeping.h"
#include "probe.h"
#include "run.h"
#include "seccomp.h"
#include "zygote.h"

#ifndef NSFS_MAGIC
#define NSFS_MAGIC 0x6e736673
#endif

/* ---- --create-netns PATH ---- */

static int create_netns(const char *path)
{
	struct statfs sfs;
	if (statfs(path, &sfs) == 0 && (unsigned long)sfs.f_type == NSFS_MAGIC)
		return 0; /* already a persisted namespace */
	if (unshare(CLONE_NEWNET) < 0) {
		perror("codecell-launcher: unshare(CLONE_NEWNET)");
		return 1;
	}
	int fd = open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0444);
	if (fd < 0) {
		perror("codecell-launcher: create netns file");
		return 1;
	}
	close(fd);
	if (mount("/proc/self/ns/net", path, NULL, MS_BIND, NULL) < 0) {
		perror("codecell-launcher: bind /proc/self/ns/net");
		return 1;
	}
	return 0;
}

/* ---- main ---- */

int main(int argc, char **argv)
{
	if (argc < 1)
		return 2;
	signal(SIGPIPE, SIG_IGN);
	char *args_start = argv[0];
	char *args_end = argv[argc - 1] + strlen(argv[argc - 1]) + 1;
	if (argc == 3 && !strcmp(argv[1], "--create-netns"))
		return create_netns(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "--probe-ia32"))
		return probe_ia32();
	if (argc == 2 && !strcmp(argv[1], "--print-policy"))
		return seccomp_print_policy();
	if (argc == 3 && !strcmp(argv[1], "--serve"))
		return zygote_main(argv[2], args_start, args_end);
	if (argc == 5 && !strcmp(argv[1], "--serve") && !strcmp(argv[3], "--housekeeping-cpus")) {
		if (housekeeping_set(argv[4]) < 0) {
			fprintf(stderr, "codecell-launcher: bad --housekeeping-cpus %s\n", argv[4]);
			return 2;
		}
		return zygote_main(argv[2], args_start, args_end);
	}
	return launcher_main(argc, argv, args_start, args_end);
}
