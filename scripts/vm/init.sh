#!/bin/sh
# PID 1 of the cgroup v2 test VM (busybox). Mounts the host's root read-only over 9p with a tmpfs
# overlay, mounts cgroup2 at /sys/fs/cgroup with every controller enabled for children, chroots
# into it and runs the command the host passed on the kernel command line (codecell.cmd, base64).
# The last line on the console is "CODECELL-VM-EXIT=<status>"; then the VM powers off.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci 9pnet 9pnet_virtio netfs fscache 9p overlay; do
  insmod /modules/$m.ko || echo "codecell-vm: insmod $m failed"
done
finish() {
  echo "CODECELL-VM-EXIT=$1"
  sync
  poweroff -f
}
mkdir -p /lower /rw /root
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=mmap hostroot /lower || finish 90
mount -t tmpfs -o size=2560m tmpfs /rw || finish 91
mkdir -p /rw/upper /rw/work
mount -t overlay overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work /root || finish 92
mount -t proc proc /root/proc
mount -t sysfs sysfs /root/sys
mount -t devtmpfs devtmpfs /root/dev
mkdir -p /root/dev/pts /root/dev/shm && mount -t devpts devpts /root/dev/pts && mount -t tmpfs tmpfs /root/dev/shm
# /tmp stays the overlay's (host /tmp read-only, writes in the tmpfs upper): a checkout under the
# host's /tmp (CI clones there) must stay visible.
mount -t cgroup2 -o nsdelegate cgroup2 /root/sys/fs/cgroup || finish 93
controllers=$(cat /root/sys/fs/cgroup/cgroup.controllers)
for c in $controllers; do echo "+$c" > /root/sys/fs/cgroup/cgroup.subtree_control; done
echo "codecell-vm: kernel $(uname -r); cgroup2 controllers: $controllers"
cmd=$(sed -n 's/.*codecell.cmd=\([^ ]*\).*/\1/p' /proc/cmdline | base64 -d)
# The test processes live in a leaf cgroup of their own: the root's processes block nothing on v2,
# but a leaf keeps the root's controllers free for the node's own subtree.
mkdir -p /root/sys/fs/cgroup/host && echo $$ > /root/sys/fs/cgroup/host/cgroup.procs
chroot /root /bin/sh -c "$cmd"
finish $?
