/* Init side of the namespaces created by clone() in main.c. */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "launcher.h"

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
