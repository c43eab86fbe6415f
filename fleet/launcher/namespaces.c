/* Init side of the namespaces created by clone() in main.c, and the time namespace it makes for
 * its children. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "namespaces.h"
#include "status.h"

/* clone(CLONE_NEWPID) made us pid 1 of a fresh pid namespace. */
int ns_check_pid(struct config *c)
{
	(void)c;
	if (getpid() != 1)
		return fail(CTL_PID_NAMESPACE, EINVAL, "init is not pid 1 of its pid namespace");
	return 0;
}

/* Nothing mounted from here on may propagate back to the host. */
int ns_mount_private(struct config *c)
{
	(void)c;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return fail(CTL_MOUNT_NAMESPACE, errno, "mount / MS_REC|MS_PRIVATE");
	return 0;
}

/* --netns: join the persisted empty namespace (clone did not create one).
 * Without it, clone(CLONE_NEWNET) already gave us an empty one. */
int ns_join_net(struct config *c)
{
	if (c->netns_fd < 0)
		return 0;
	if (setns(c->netns_fd, CLONE_NEWNET) < 0)
		return fail(CTL_NETWORK_NAMESPACE, errno, "setns %s", c->netns_path);
	close(c->netns_fd);
	c->netns_fd = -1;
	return 0;
}

/* clone(CLONE_NEWIPC) is all there is to it. */
int ns_ipc(struct config *c)
{
	(void)c;
	return 0;
}

int ns_uts(struct config *c)
{
	if (sethostname(c->hostname, strlen(c->hostname)) < 0)
		return fail(CTL_UTS_NAMESPACE, errno, "sethostname");
	if (setdomainname("", 0) < 0)
		return fail(CTL_UTS_NAMESPACE, errno, "setdomainname");
	return 0;
}

/* -t as the kernel takes an offset: seconds (negative) and nanoseconds in [0, 1e9). */
static struct timespec negated(struct timespec t)
{
	struct timespec r = {.tv_sec = -t.tv_sec, .tv_nsec = 0};
	if (t.tv_nsec > 0) {
		r.tv_sec -= 1;
		r.tv_nsec = 1000000000L - t.tv_nsec;
	}
	return r;
}

/* A time namespace for the run's processes (init stays in the host's: its clock times the run).
 * The offsets take the host's time since boot off CLOCK_MONOTONIC and CLOCK_BOOTTIME, so the
 * program's uptime, sysinfo(2) uptime and clocks count from about now. They can only be written
 * before a process enters the namespace: this runs before the program child is forked. */
int ns_time(struct config *c)
{
	(void)c;
	struct timespec mono, boot;
	char offsets[96];
	if (unshare(CLONE_NEWTIME) < 0)
		return fail(CTL_TIME_NAMESPACE, errno, "unshare(CLONE_NEWTIME)");
	if (clock_gettime(CLOCK_MONOTONIC, &mono) < 0 || clock_gettime(CLOCK_BOOTTIME, &boot) < 0)
		return fail(CTL_TIME_NAMESPACE, errno, "clock_gettime");
	struct timespec m = negated(mono), b = negated(boot);
	int n = snprintf(offsets, sizeof offsets, "monotonic %lld %ld\nboottime %lld %ld\n", (long long)m.tv_sec, m.tv_nsec,
			 (long long)b.tv_sec, b.tv_nsec);
	int fd = open("/proc/self/timens_offsets", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(CTL_TIME_NAMESPACE, errno, "open /proc/self/timens_offsets");
	ssize_t w = write(fd, offsets, (size_t)n);
	int err = errno;
	close(fd);
	if (w != n)
		return fail(CTL_TIME_NAMESPACE, w < 0 ? err : EIO, "write /proc/self/timens_offsets");
	return 0;
}
