#!/usr/bin/env bash
# `npm run test:cgroup2`: the sandbox and verdict suites inside a real Linux kernel with cgroup v2,
# under qemu with software emulation (hardware virtualisation is not available here). The VM sees
# this machine's root read-only (9p) under a tmpfs overlay, so it runs this checkout and its
# node_modules as they are. Needs a kernel in /boot with its modules (linux-image-amd64),
# qemu-system-x86_64 (qemu-system-x86), a static /bin/busybox (busybox-static), cpio, gzip and find;
# scripts/provision.sh --test-tools installs them, and a missing one is named with its package
# before anything starts. Usage: scripts/cgroup2-vm.sh [test files…]; `--check` only checks them.
# CGROUP2_VM_BOOT, CGROUP2_VM_MODULES and CGROUP2_VM_BUSYBOX move /boot, /lib/modules and
# /bin/busybox (the prerequisite test points them at empty places).
#
# The VM's two CPUs are emulated by one host thread (`-accel tcg,thread=single`). With one host
# thread per CPU (QEMU's default, MTTCG), Node processes in the VM died of a V8 internal check
# ("Check failed: it->second.Size() > offset") or SIGSEGV while loading a test file: 7 runs in 34
# of test/sandbox/isolation.test.ts alone, with or without the emulated AVX and PKU; none in 15
# single-threaded, nor in whole suites since, which take about a minute longer.
# CGROUP2_VM_ACCEL and CGROUP2_VM_CPU override both.
set -euo pipefail
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
here=$(cd "$here" && pwd)
root=$(cd "$here/.." && pwd)
boot=${CGROUP2_VM_BOOT:-/boot}
modules=${CGROUP2_VM_MODULES:-/lib/modules}
busybox=${CGROUP2_VM_BUSYBOX:-/bin/busybox}

# Every prerequisite is checked before the first fails the run, each missing one named with the
# package that brings it. Only shell builtins until a kernel is found, so the check runs whatever
# PATH lacks.
missing=()
lacks() { missing+=("  $1 (apt-get install $2)"); }
kernels=()
for image in "$boot"/vmlinuz-*; do [ -f "$image" ] && kernels+=("$image"); done
kernel=""
version=""
if [ ${#kernels[@]} -eq 0 ]; then
  lacks "a kernel: no $boot/vmlinuz-*" linux-image-amd64
else
  kernel=$(printf '%s\n' "${kernels[@]}" | sort -V | tail -n 1)
  version=${kernel#"$boot"/vmlinuz-}
  [ -d "$modules/$version" ] || lacks "the kernel's modules: no $modules/$version" "--reinstall linux-image-$version"
fi
command -v qemu-system-x86_64 >/dev/null || lacks "qemu-system-x86_64" qemu-system-x86
if [ ! -x "$busybox" ]; then
  lacks "a static busybox: no $busybox" busybox-static
elif command -v ldd >/dev/null && [[ $(ldd "$busybox" 2>/dev/null || true) == *"=>"* ]]; then
  # (read whole: `ldd | grep -q` fails under pipefail when grep's early exit ends ldd by SIGPIPE)
  lacks "a static busybox: $busybox is linked dynamically and cannot run alone in the initramfs" busybox-static
fi
command -v cpio >/dev/null || lacks "cpio" cpio
command -v gzip >/dev/null || lacks "gzip" gzip
command -v find >/dev/null || lacks "find" findutils
if [ ${#missing[@]} -gt 0 ]; then
  echo "cgroup2-vm: cannot start the VM; missing:" >&2
  printf '%s\n' "${missing[@]}" >&2
  echo "cgroup2-vm: scripts/provision.sh --test-tools installs all of them (as root)." >&2
  exit 2
fi
if [ "${1:-}" = --check ]; then
  echo "cgroup2-vm: ready: kernel $kernel, $(command -v qemu-system-x86_64), $busybox"
  exit 0
fi

files=("$@")
[ ${#files[@]} -gt 0 ] || files=(test/sandbox/*.test.ts)
work=$(mktemp -d /tmp/codecell-vm-XXXXXX)
cleanup() {
  rm -rf "$work"
}
trap cleanup EXIT

# initramfs: busybox, the 9p/virtio/overlay modules of the installed kernel, and our init.
mkdir -p "$work/initramfs/bin" "$work/initramfs/modules" "$work/initramfs"/{proc,sys,dev}
cp "$busybox" "$work/initramfs/bin/busybox"
ln -s busybox "$work/initramfs/bin/sh"
for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci 9pnet 9pnet_virtio netfs fscache 9p overlay; do
  find "$modules/$version" -name "$m.ko" -exec cp {} "$work/initramfs/modules/" \;
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
