#!/bin/sh
# Builds fleet/launcher/build/codecell-launcher. Idempotent; silent on success.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/build"
mkdir -p "$out"
CC=${CC:-cc}
# shellcheck disable=SC2086
$CC -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE -static ${CFLAGS:-} \
	-o "$out/codecell-launcher.tmp" \
	"$here"/*.c # every source file here
mv -f "$out/codecell-launcher.tmp" "$out/codecell-launcher"
# The check server (docs/sandbox.md, "Check server"): a program of its own, run inside the sandbox.
# shellcheck disable=SC2086
$CC -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE -static ${CFLAGS:-} \
	-o "$out/codecell-checkd.tmp" \
	"$here"/checkd/*.c "$here"/proc_file.c # proc_file.c: tree_cpu.c's reader, the launcher's too
mv -f "$out/codecell-checkd.tmp" "$out/codecell-checkd"
# Its warm start: preloaded into a dynamically linked checker; no libc, so it loads into any.
$CC -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE -shared -fPIC -nostdlib -fno-stack-protector -fno-builtin ${CFLAGS:-} \
	-o "$out/codecell-checkd-warm.so.tmp" \
	"$here"/checkd/warm/warm.c
mv -f "$out/codecell-checkd-warm.so.tmp" "$out/codecell-checkd-warm.so"
