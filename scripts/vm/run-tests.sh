#!/bin/sh
# Runs inside the cgroup v2 VM: the given test files with node's test runner. Under software
# emulation a Node process has been seen to die of a V8 internal check ("Fatal error … Check
# failed") while loading a test file, a crash of the emulated CPU rather than of a test; such a
# file (a failure at <file>:1:1 and nothing else failing) is run once more on its own, and the
# run fails if it fails again. Any assertion failure fails the run at once.
out=/tmp/codecell-vm-tests.log
node --test --test-concurrency=1 "$@" 2>&1 | tee "$out"
if grep -q '^ℹ fail 0$' "$out" && ! grep -q '^ℹ fail [1-9]' "$out"; then exit 0; fi
crashed=$(sed -n 's/^test at \(.*\):1:1$/\1/p' "$out" | sort -u)
others=$(grep '^test at ' "$out" | grep -v ':1:1$' | wc -l)
if [ -z "$crashed" ] || [ "$others" -ne 0 ]; then exit 1; fi
echo "codecell-vm: a test process died while loading (emulated CPU); running once more alone: $crashed"
# shellcheck disable=SC2086
node --test --test-concurrency=1 $crashed
