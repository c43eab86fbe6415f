/* The sandbox's /proc: a fresh proc of its pid namespace, with the host-wide files that show the
 * host's or other tenants' activity replaced (init, before pivot_root, in the staged root).
 *
 * The replacements are files written into a small tmpfs of their own, which is then made
 * read-only (the superblock and the mount, so every bind of it is read-only too) and bound, one
 * file each, over the /proc files. That tmpfs is mounted over the staging directory before the
 * root is (procfs_masks_mount), so the root hides it and pivot_root's detach of the old root
 * takes its mount away: no unmount of its own (each one waits for an RCU grace period).
 * The empty masks are one file bound several times, and /proc/pressure, a directory, is covered
 * by an empty directory of the same tmpfs (no superblock of its own). A file this kernel does not
 * have is left alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "config.h"
#include "mounts.h"
#include "proc_file.h"
#include "procfs.h"
#include "status.h"

#define PROC STAGE "/proc"
#define MASKS_TMPFS_OPTS "size=256k,nr_inodes=32,mode=0755"
#define MS_LOCKED_DOWN (MS_NOSUID | MS_NODEV | MS_NOEXEC)

int procfs_mount(struct config *c)
{
	(void)c;
	if (mount("proc", PROC, "proc", MS_LOCKED_DOWN, NULL) < 0)
		return fail(CTL_PROC, errno, "mount /proc");
	return 0;
}

/* The masks' tmpfs, over the staging directory (before the root is staged there); c->masks_fd. */
int procfs_masks_mount(struct config *c)
{
	if (mount("tmpfs", STAGE, "tmpfs", MS_LOCKED_DOWN, MASKS_TMPFS_OPTS) < 0)
		return fail(CTL_PROC_MASKS, errno, "mount the masks' tmpfs");
	c->masks_fd = open(STAGE, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->masks_fd < 0)
		return fail(CTL_PROC_MASKS, errno, "open the masks' tmpfs");
	return 0;
}

/* The CPUs /proc/stat lists (its "cpuN" lines), as many as the fake one shows. */
static int count_cpus(const char *proc)
{
	static char text[65536];
	char path[64];
	snprintf(path, sizeof path, "%s/stat", proc);
	read_proc_file(path, text, sizeof text); /* nothing read: one CPU */
	int cpus = 0;
	for (char *line = text; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		cpus += !strncmp(line, "cpu", 3) && line[3] >= '0' && line[3] <= '9';
	return cpus > 0 ? cpus : 1;
}

/* /proc/stat without the host's counters (forks, context switches, interrupts, boot time, CPU
 * times): one line per CPU, all zero, so that counting CPUs from it still works. */
static void fake_stat(char *buf, size_t size, const char *proc)
{
	static const char zeros[] = " 0 0 0 0 0 0 0 0 0 0\n";
	int cpus = count_cpus(proc);
	size_t n = (size_t)snprintf(buf, size, "cpu %s", zeros);
	for (int i = 0; i < cpus && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "cpu%d%s", i, zeros);
	if (n < size)
		snprintf(buf + n, size - n,
			 "intr 0\nctxt 0\nbtime 0\nprocesses 0\nprocs_running 1\nprocs_blocked 0\nsoftirq 0 0 0 0 0 0 0 0 0 0 0\n");
}

/* A boot id of the run's own (random, UUID form), not the host's. */
static void fake_boot_id(char *out, size_t size)
{
	unsigned char b[16] = {0};
	if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
		memset(b, 0, sizeof b);
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	snprintf(out, size, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x\n", b[0], b[1], b[2],
		 b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

/* /proc/meminfo of a machine as large as the run's memory limit, all of it free, no swap (as
 * lxcfs shows a container): what a runtime sizes itself by (Node's os.totalmem(), free). */
static void fake_meminfo(char *buf, size_t size, uint64_t limit)
{
	static const char *const zero_kb[] = {
		"Buffers", "Cached", "SwapCached", "Active", "Inactive", "Active(anon)", "Inactive(anon)",
		"Active(file)", "Inactive(file)", "Unevictable", "Mlocked", "SwapTotal", "SwapFree", "Dirty",
		"Writeback", "AnonPages", "Mapped", "Shmem", "KReclaimable", "Slab", "SReclaimable",
		"SUnreclaim", "KernelStack", "PageTables", "Committed_AS", "AnonHugePages", "Hugetlb"};
	unsigned long long kb = (unsigned long long)(limit / 1024);
	size_t n = (size_t)snprintf(buf, size, "MemTotal:       %8llu kB\nMemFree:        %8llu kB\nMemAvailable:   %8llu kB\n",
				    kb, kb, kb);
	for (size_t i = 0; i < sizeof zero_kb / sizeof zero_kb[0] && n < size; i++) {
		char label[24];
		snprintf(label, sizeof label, "%s:", zero_kb[i]);
		n += (size_t)snprintf(buf + n, size - n, "%-16s%8d kB\n", label, 0);
	}
	if (n < size)
		snprintf(buf + n, size - n, "CommitLimit:    %8llu kB\nHugePages_Total:       0\nHugePages_Free:        0\n"
					    "HugePages_Rsvd:        0\nHugePages_Surp:        0\nHugepagesize:       2048 kB\n", kb);
}

/* /proc/vmstat with the kernel's own names (a reader that looks one up finds it), every value 0. */
static int fake_vmstat(char *buf, size_t size, const char *proc)
{
	static char host[32768];
	char path[64];
	snprintf(path, sizeof path, "%s/vmstat", proc);
	if (read_proc_file(path, host, sizeof host) < 0)
		return errno == ENOENT ? 0 : -1;
	size_t n = 0;
	char *save = NULL;
	for (char *line = strtok_r(host, "\n", &save); line && n < size; line = strtok_r(NULL, "\n", &save))
		n += (size_t)snprintf(buf + n, size - n, "%.*s 0\n", (int)strcspn(line, " "), line);
	return 0;
}

struct mask {
	const char *path; /* in the sandbox; in the staged root under STAGE */
	const char *name; /* its file in the masks' tmpfs */
	const char *content;
};

enum { MASK_STAT, MASK_LOADAVG, MASK_BOOT_ID, MASK_MEMINFO, MASK_VMSTAT, MASK_INTERRUPTS, MASK_SOFTIRQS,
       MASK_DISKSTATS, MASK_SCHEDSTAT, N_MASKS };
static const char *const MASK_PATHS[N_MASKS] = {"/proc/stat", "/proc/loadavg", "/proc/sys/kernel/random/boot_id",
						 "/proc/meminfo", "/proc/vmstat", "/proc/interrupts", "/proc/softirqs",
						 "/proc/diskstats", "/proc/schedstat"};

/* What the masks take from the kernel and which never changes while it runs: its CPUs and
 * vmstat names, and which of the masked files it has. Read once, from the host's /proc, by the
 * zygote before it forks a run's child (procfs_prepare); else by init from its fresh /proc. */
static struct {
	int ready;
	char stat[8192];
	char vmstat[16384];
	unsigned char present[N_MASKS];
	unsigned char pressure; /* the kernel has /proc/pressure */
} g_kernel;

/* -1 with errno when /proc/vmstat cannot be read (no failure recorded: the zygote's would be
 * every child's). */
static int read_kernel_constants(const char *proc)
{
	fake_stat(g_kernel.stat, sizeof g_kernel.stat, proc);
	if (fake_vmstat(g_kernel.vmstat, sizeof g_kernel.vmstat, proc) < 0)
		return -1;
	for (int i = 0; i < N_MASKS; i++) {
		char path[96];
		snprintf(path, sizeof path, "%s%s", proc, MASK_PATHS[i] + strlen("/proc"));
		g_kernel.present[i] = access(path, F_OK) == 0 || errno != ENOENT;
	}
	char pressure[96];
	snprintf(pressure, sizeof pressure, "%s/pressure", proc);
	g_kernel.pressure = access(pressure, F_OK) == 0;
	g_kernel.ready = 1;
	return 0;
}

void procfs_prepare(void)
{
	if (read_kernel_constants("/proc") < 0)
		g_kernel.ready = 0; /* each run's init reads them instead, and fails if it cannot either */
}

/* An empty mask is one file shared by every empty one ("empty"), made once. */
static int write_mask(int masks_fd, const struct mask *m)
{
	size_t len = strlen(m->content);
	int fd = openat(masks_fd, m->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
	if (fd < 0 && len == 0 && errno == EEXIST)
		return 0;
	if (fd < 0)
		return fail(CTL_PROC_MASKS, errno, "create the mask of %s", m->path);
	ssize_t w = len == 0 ? 0 : write(fd, m->content, len);
	int err = errno;
	close(fd);
	if (w != (ssize_t)len)
		return fail(CTL_PROC_MASKS, w < 0 ? err : EIO, "write the mask of %s", m->path);
	return 0;
}

/* The masks' tmpfs read-only: its superblock (fspick, reconfigured "ro") and its mount, which
 * every bind cloned from it inherits. */
static int seal_masks(int masks_fd)
{
	int fs = (int)syscall(SYS_fspick, masks_fd, "", FSPICK_EMPTY_PATH | FSPICK_CLOEXEC);
	if (fs < 0)
		return fail(CTL_PROC_MASKS, errno, "make the masks' tmpfs read-only (fspick)");
	int r = (int)syscall(SYS_fsconfig, fs, FSCONFIG_SET_FLAG, "ro", NULL, 0);
	if (r == 0)
		r = (int)syscall(SYS_fsconfig, fs, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0);
	int err = errno;
	close(fs);
	if (r < 0)
		return fail(CTL_PROC_MASKS, err, "make the masks' tmpfs read-only");
	struct mount_attr attr = {.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC};
	if (sys_mount_setattr(masks_fd, "", AT_EMPTY_PATH, &attr) < 0)
		return fail(CTL_PROC_MASKS, errno, "make the masks' mount read-only");
	return 0;
}

static int bind_mask(int masks_fd, const struct mask *m)
{
	char target[64];
	snprintf(target, sizeof target, STAGE "%s", m->path);
	int tree = sys_open_tree(masks_fd, m->name, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return fail(CTL_PROC_MASKS, errno, "clone the mask of %s", m->path);
	int r = sys_move_mount(tree, "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH);
	int err = errno;
	close(tree);
	return r < 0 ? fail(CTL_PROC_MASKS, err, "mask %s", m->path) : 0;
}

/* The masks: written, sealed, bound. /proc/pressure (the host's whole pressure stall figures)
 * gets an empty directory of the masks' tmpfs, as on a kernel without them. */
static int mask_files(int masks_fd, struct mask *masks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (write_mask(masks_fd, &masks[i]) < 0)
			return -1;
	int pressure = g_kernel.pressure;
	if (pressure && mkdirat(masks_fd, "pressure", 0555) < 0)
		return fail(CTL_PROC_MASKS, errno, "create the mask of /proc/pressure");
	if (seal_masks(masks_fd) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (bind_mask(masks_fd, &masks[i]) < 0)
			return -1;
	if (pressure && bind_mask(masks_fd, &(struct mask){"/proc/pressure", "pressure", ""}) < 0)
		return -1;
	return 0;
}

int procfs_mask(struct config *c)
{
	static char meminfo[4096];
	char boot_id[40];
	if (!g_kernel.ready && read_kernel_constants(PROC) < 0)
		return fail(CTL_PROC_MASKS, errno, "read /proc/vmstat");
	fake_boot_id(boot_id, sizeof boot_id);
	fake_meminfo(meminfo, sizeof meminfo, c->memory_limit);
	const char *contents[N_MASKS] = {
		[MASK_STAT] = g_kernel.stat, [MASK_LOADAVG] = "0.00 0.00 0.00 1/1 1\n", [MASK_BOOT_ID] = boot_id,
		[MASK_MEMINFO] = meminfo, [MASK_VMSTAT] = g_kernel.vmstat, [MASK_INTERRUPTS] = "", [MASK_SOFTIRQS] = "",
		[MASK_DISKSTATS] = "", [MASK_SCHEDSTAT] = ""};
	struct mask masks[N_MASKS];
	size_t n = 0;
	for (int i = 0; i < N_MASKS; i++)
		if (g_kernel.present[i])
			masks[n++] = (struct mask){MASK_PATHS[i], contents[i][0] ? strrchr(MASK_PATHS[i], '/') + 1 : "empty", contents[i]};
	int r = mask_files(c->masks_fd, masks, n);
	close(c->masks_fd);
	c->masks_fd = -1;
	return r;
}
