#!/bin/sh
# Runs inside the cgroup v2 VM: the given test files with node's test runner. Under software
# emulation a Node process has been seen to die of a V8 internal check ("Fatal error … Check
# failed") while loading a test file, a crash of the emulated CPU rather than of a test (with one
# host thread per emulated CPU; cgroup2-vm.sh now emulates both on one, and none has died since). Such a
# file (a failure at <file>:1:1 and nothing else failing) is run again on its own (below), and the
# run fails if every retry fails. Any assertion failure fails the run at once.
out=/tmp/codecell-vm-tests.log
node --test --test-concurrency=1 "$@" 2>&1 | tee "$out"
if grep -q '^ℹ fail 0$' "$out" && ! grep -q '^ℹ fail [1-9]' "$out"; then exit 0; fi
crashed=$(sed -n 's/^test at \(.*\):1:1$/\1/p' "$out" | sort -u)
others=$(grep '^test at ' "$out" | grep -v ':1:1$' | wc -l)
if [ -z "$crashed" ] || [ "$others" -ne 0 ]; then exit 1; fi
# Each such file gets up to three more runs on its own, the last without V8's optimising
# compilers (--no-opt --no-maglev: slower, but without the generated code the emulated CPU has
# tripped on; --jitless would also drop WebAssembly, which Node's type stripping needs).
status=0
for file in $crashed; do
  ok=1
  for flags in "" "" "--no-opt --no-maglev"; do
    echo "codecell-vm: a test process died (emulated CPU); running it again alone${flags:+ with $flags}: $file"
    # shellcheck disable=SC2086
    if node $flags --test --test-concurrency=1 "$file"; then ok=0; break; fi
  done
  [ "$ok" -eq 0 ] || status=1
done
exit "$status"
