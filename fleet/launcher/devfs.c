/* /dev of the new root: a small tmpfs of the four harmless character devices, the fd links and
 * a /dev/shm of the run's own, then made read-only. A step of init.c's root pipeline (rootfs.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "config.h"
#include "devfs.h"
#include "mounts.h"
#include "status.h"

#define DEV_TMPFS_OPTS "size=64k,nr_inodes=64,mode=0755"

/* A device node: mknod, or a bind of the host's node where mknod is not
 * permitted (no CAP_MKNOD in some container setups). */
static int make_dev(int dev_fd, const char *name, unsigned major_nr, unsigned minor_nr)
{
	if (mknodat(dev_fd, name, S_IFCHR | 0666, makedev(major_nr, minor_nr)) == 0)
		return 0;
	if (errno != EPERM)
		return fail(CTL_DEV, errno, "mknod /dev/%s", name);
	char host[32];
	snprintf(host, sizeof host, "/dev/%s", name);
	struct stat st;
	if (stat(host, &st) < 0)
		return fail(CTL_DEV, errno, "stat %s", host);
	if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != major_nr || minor(st.st_rdev) != minor_nr)
		return fail(CTL_DEV, EINVAL, "host %s is not the expected device", host);
	int tree = sys_open_tree(AT_FDCWD, host, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return fail(CTL_DEV, errno, "open_tree %s", host);
	int r = 0;
	if (mknodat(dev_fd, name, S_IFREG | 0644, 0) < 0)
		r = fail(CTL_DEV, errno, "create /dev/%s", name);
	else if (sys_move_mount(tree, "", dev_fd, name, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		r = fail(CTL_DEV, errno, "bind %s", host);
	close(tree);
	return r;
}

int devfs_mount(struct config *c)
{
	static const struct {
		const char *name;
		unsigned major_nr, minor_nr;
	} nodes[] = {{"null", 1, 3}, {"zero", 1, 5}, {"random", 1, 8}, {"urandom", 1, 9}};
	static const struct {
		const char *target, *name;
	} links[] = {{"/proc/self/fd", "fd"},
		     {"/proc/self/fd/0", "stdin"},
		     {"/proc/self/fd/1", "stdout"},
		     {"/proc/self/fd/2", "stderr"}};

	if (mount("codecell-dev", STAGE "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, DEV_TMPFS_OPTS) < 0)
		return fail(CTL_DEV, errno, "mount /dev tmpfs");
	int dev_fd = openat(c->root_fd, "dev", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dev_fd < 0)
		return fail(CTL_DEV, errno, "open /dev");
	int r = 0;
	for (size_t i = 0; r == 0 && i < sizeof nodes / sizeof nodes[0]; i++)
		r = make_dev(dev_fd, nodes[i].name, nodes[i].major_nr, nodes[i].minor_nr);
	for (size_t i = 0; r == 0 && i < sizeof links / sizeof links[0]; i++)
		if (symlinkat(links[i].target, dev_fd, links[i].name) < 0)
			r = fail(CTL_DEV, errno, "symlink /dev/%s", links[i].name);
	if (r == 0 && mkdirat(dev_fd, "shm", 01777) < 0)
		r = fail(CTL_DEV, errno, "mkdir /dev/shm");
	close(dev_fd);
	if (r == 0 && mount(NULL, STAGE "/dev", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NOEXEC,
			    NULL) < 0)
		r = fail(CTL_DEV, errno, "remount /dev read-only");
	/* POSIX shared memory (shm_open, Python's multiprocessing): a tmpfs of the
	 * run's own, as large as /tmp. Its pages are charged to the run's memory
	 * cgroup like any other memory the program touches. */
	char opts[64];
	snprintf(opts, sizeof opts, "size=%llu,mode=1777", (unsigned long long)c->tmp_size);
	if (r == 0 && mount("codecell-shm", STAGE "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts) < 0)
		r = fail(CTL_DEV, errno, "mount /dev/shm tmpfs");
	return r;
}
