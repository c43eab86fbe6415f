/* Program child: drop every privilege, after the cgroup join and rlimits.
 * Order: bounding set, ambient set, supplementary groups, gid, uid (all three
 * ids each), check, zero capability sets, no_new_privs. Dumpable is left
 * alone (PR_SET_DUMPABLE=0 would break the program's access to /proc/self). */
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "config.h"
#include "privileges.h"
#include "status.h"

/* Every capability out of the bounding set, up to the kernel's last whatever the headers say;
 * -1 with errno and *CAP at the first refusal. */
static int empty_bounding_set(int *cap)
{
	for (*cap = 0;; (*cap)++) {
		if (prctl(PR_CAPBSET_DROP, *cap, 0, 0, 0) == 0)
			continue;
		if (errno == EINVAL && *cap > CAP_LAST_CAP / 2)
			return 0;
		return -1;
	}
}

/* The zygote empties its own bounding set once (each drop is a new set of credentials, about a
 * microsecond each): every process it forks inherits the empty set. Nothing the zygote forks
 * executes anything but the program, whose capabilities are cleared anyway. */
static int g_bounding_set_empty;

void privileges_empty_bounding_set_early(void)
{
	int cap;
	g_bounding_set_empty = empty_bounding_set(&cap) == 0;
}

int privileges_drop_caps_bounding(void)
{
	int cap;
	if (!g_bounding_set_empty && empty_bounding_set(&cap) < 0)
		return fail(CTL_CAPABILITIES, errno, "PR_CAPBSET_DROP %d", cap);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		return fail(CTL_CAPABILITIES, errno, "PR_CAP_AMBIENT_CLEAR_ALL");
	return 0;
}

int privileges_set_ids(const struct config *c)
{
	if (setgroups(0, NULL) < 0)
		return fail(CTL_UID_GID, errno, "setgroups");
	if (setresgid(c->gid, c->gid, c->gid) < 0)
		return fail(CTL_UID_GID, errno, "setresgid %u", (unsigned)c->gid);
	if (setresuid(c->uid, c->uid, c->uid) < 0)
		return fail(CTL_UID_GID, errno, "setresuid %u", (unsigned)c->uid);
	uid_t r, e, s;
	gid_t rg, eg, sg;
	if (getresuid(&r, &e, &s) < 0 || getresgid(&rg, &eg, &sg) < 0)
		return fail(CTL_UID_GID, errno, "getresuid");
	if (r == 0 || e == 0 || s == 0 || r != c->uid || e != c->uid || s != c->uid || rg != c->gid ||
	    eg != c->gid || sg != c->gid)
		return fail(CTL_UID_GID, EPERM, "credentials did not change");
	return 0;
}

int privileges_clear_caps(void)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {{0, 0, 0}};
	if (syscall(SYS_capset, &hdr, data) < 0)
		return fail(CTL_CAPABILITIES, errno, "capset 0");
	if (syscall(SYS_capget, &hdr, data) < 0)
		return fail(CTL_CAPABILITIES, errno, "capget");
	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (data[i].effective || data[i].permitted || data[i].inheritable)
			return fail(CTL_CAPABILITIES, EPERM, "capabilities still set");
	return 0;
}

int privileges_no_new_privs(void)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return fail(CTL_NO_NEW_PRIVILEGES, errno, "PR_SET_NO_NEW_PRIVS");
	return 0;
}
