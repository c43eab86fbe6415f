#!/usr/bin/env bash
# `npm run test:cgroup2`: the sandbox and verdict suites inside a real Linux kernel with cgroup v2,
# under qemu with software emulation (hardware virtualisation is not available here). The VM sees
# this machine's root read-only (9p) under a tmpfs overlay, so it runs this checkout and its
# node_modules as they are. Needs: qemu-system-x86, linux-image-amd64, busybox-static
# (scripts/provision.sh installs them). Usage: scripts/cgroup2-vm.sh [test files…]
#
# The VM's two CPUs are emulated by one host thread (`-accel tcg,thread=single`). With one host
# thread per CPU (QEMU's default, MTTCG), Node processes in the VM died of a V8 internal check
# ("Check failed: it->second.Size() > offset") or SIGSEGV while loading a test file: 7 runs in 34
# of test/sandbox/isolation.test.ts alone, with or without the emulated AVX and PKU; none in 15
# single-threaded, nor in whole suites since, which take about a minute longer.
# CGROUP2_VM_ACCEL and CGROUP2_VM_CPU override both.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
kernel=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
[ -n "$kernel" ] || { echo "cgroup2-vm: no kernel in /boot (apt-get install linux-image-amd64)" >&2; exit 2; }
version=${kernel#/boot/vmlinuz-}
command -v qemu-system-x86_64 >/dev/null || { echo "cgroup2-vm: qemu-system-x86_64 missing (apt-get install qemu-system-x86)" >&2; exit 2; }
[ -x /bin/busybox ] || { echo "cgroup2-vm: /bin/busybox missing (apt-get install busybox-static)" >&2; exit 2; }

files=("$@")
[ ${#files[@]} -gt 0 ] || files=(test/sandbox/*.test.ts)
work=$(mktemp -d /tmp/codecell-vm-XXXXXX)
cleanup() {
  rm -rf "$work"
}
trap cleanup EXIT

# initramfs: busybox, the 9p/virtio/overlay modules of the installed kernel, and our init.
mkdir -p "$work/initramfs/bin" "$work/initramfs/modules" "$work/initramfs"/{proc,sys,dev}
cp /bin/busybox "$work/initramfs/bin/busybox"
ln -s busybox "$work/initramfs/bin/sh"
for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci 9pnet 9pnet_virtio netfs fscache 9p overlay; do
  find "/lib/modules/$version" -name "$m.ko" -exec cp {} "$work/initramfs/modules/" \;
done
cp "$here/vm/init.sh" "$work/initramfs/init"
chmod +x "$work/initramfs/init"
(cd "$work/initramfs" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initramfs.gz"

cmd=${CGROUP2_VM_COMMAND:-"cd '$root' && export CI=true PATH='$root/node_modules/.bin:/usr/local/bin:/usr/bin:/bin' HOME=/root && sh scripts/vm/run-tests.sh ${files[*]}"}
encoded=$(printf '%s' "$cmd" | base64 -w0)
log="$work/console.log"
timeout_secs=${CGROUP2_VM_TIMEOUT_SECS:-2700}
start=$(date +%s)
set +e
timeout --kill-after=10 "$timeout_secs" qemu-system-x86_64 -accel "${CGROUP2_VM_ACCEL:-tcg,thread=single}" -cpu "${CGROUP2_VM_CPU:-max}" -m 4096 -smp 2 -nic none -nographic -no-reboot \
  -kernel "$kernel" -initrd "$work/initramfs.gz" \
  -append "console=ttyS0 quiet panic=-1 rdinit=/init codecell.cmd=$encoded" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  </dev/null 2>&1 | tee "$log" | sed -u 's/\x1b\[[0-9;?]*[a-zA-Z]//g'
set -e
status=$(sed -n 's/.*CODECELL-VM-EXIT=\([0-9]*\).*/\1/p' "$log" | tail -n 1)
echo "cgroup2-vm: $(( $(date +%s) - start )) s, exit ${status:-none (timed out or crashed)}"
[ "${status:-1}" = 0 ]
