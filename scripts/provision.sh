#!/usr/bin/env bash
# Installs the language toolchains a fleet node offers (docs/languages.md), only those missing.
# Idempotent and quiet when everything is present. Debian/Ubuntu (apt-get) for the system
# toolchains; Node 24 (javascript, typescript) is the project's own `node` npm dev dependency,
# installed by `npm ci`. Exits non-zero with the exact command to run when it cannot install.
# Extra versions and the curated libraries ("Versions and libraries" in docs/languages.md) are
# best effort: one that cannot be installed is warned about and simply not offered.
#
#   scripts/provision.sh                install what is missing (needs root)
#   scripts/provision.sh --test-tools   the same, plus what only the tests use (the test command
#                                       and .ci/run ask for it; `npm start` does not)
#   scripts/provision.sh --check        only report the service's toolchains; exit 1 if one is missing
set -euo pipefail
cd "$(dirname "$0")/.."

check_only=false
test_tools=false
for arg in "$@"; do
  case "$arg" in
    --check) check_only=true ;;
    --test-tools) test_tools=true ;;
    *) echo "provision: unknown option $arg (use --check or --test-tools)" >&2; exit 2 ;;
  esac
done

missing=()   # Debian package names
notes=()     # human-readable "language: what is missing"

need() { # need PACKAGE LANGUAGE WHAT
  missing+=("$1")
  notes+=("$2: $3")
}

# python: the system interpreter (never a pyenv/venv shim).
[ -x /usr/bin/python3 ] || need python3 python /usr/bin/python3

# c, cpp
[ -x /usr/bin/gcc ] || need gcc c /usr/bin/gcc
[ -x /usr/bin/g++ ] || need g++ cpp /usr/bin/g++

# java: a JDK under /usr/lib/jvm with javac and jar (Debian 12: OpenJDK 17).
java_ok=false
for jdk in /usr/lib/jvm/java-*-openjdk-*; do
  if [ -x "$jdk/bin/javac" ] && [ -x "$jdk/bin/java" ]; then java_ok=true; break; fi
done
$java_ok || need default-jdk-headless java "a JDK (javac) under /usr/lib/jvm"
# The Java compile step packs the classes into one jar with Info-ZIP (faster than `jar`).
[ -x /usr/bin/zip ] || need zip java /usr/bin/zip

# go: Debian's golang-go (/usr/bin/go -> /usr/lib/go-*/bin/go).
go_ok=false
for go in /usr/lib/go/bin/go /usr/lib/go-*/bin/go; do
  if [ -x "$go" ]; then go_ok=true; break; fi
done
$go_ok || need golang-go go /usr/lib/go/bin/go

# rust: a rustup toolchain (bound read-only at /opt/rust) or Debian's rustc.
rust_ok=false
if [ -x /usr/bin/rustc ]; then rust_ok=true; fi
for toolchain in "${RUSTUP_HOME:-$HOME/.rustup}"/toolchains/*; do
  if [ -x "$toolchain/bin/rustc" ]; then rust_ok=true; break; fi
done
$rust_ok || need rustc rust "rustc (rustup toolchain or /usr/bin/rustc)"

# Test tools (only with --test-tools, never for `npm start`): Debian's chromium for the dashboard's
# browser test (driven by playwright-core); `ip` and openssl for the cluster test's network
# namespaces and test CA; the cgroup v2 test VM (`npm run test:cgroup2`): qemu with software
# emulation, a Debian kernel and a static busybox for its initramfs (packed with cpio); bubblewrap
# for `npm run bench:sandbox`'s row beside ours.
if $test_tools && ! $check_only; then
  [ -x /usr/bin/chromium ] || need chromium dashboard-test /usr/bin/chromium
  command -v ip >/dev/null 2>&1 || need iproute2 cluster-test "ip (iproute2)"
  command -v openssl >/dev/null 2>&1 || need openssl cluster-test /usr/bin/openssl
  command -v qemu-system-x86_64 >/dev/null || need qemu-system-x86 cgroup2-test qemu-system-x86_64
  ls /boot/vmlinuz-* >/dev/null 2>&1 || need linux-image-amd64 cgroup2-test /boot/vmlinuz-*
  [ -x /bin/busybox ] || need busybox-static cgroup2-test /bin/busybox
  command -v cpio >/dev/null || need cpio cgroup2-test cpio
  command -v bwrap >/dev/null || need bubblewrap sandbox-bench bwrap
fi

# javascript, typescript: Node 24 from the npm registry (the project's `node` dev dependency).
node_ok=false
if [ -x node_modules/node/bin/node ] && node_modules/node/bin/node -e 'process.exit(+process.versions.node.split(".")[0] >= 24 ? 0 : 1)' 2>/dev/null; then
  node_ok=true
fi

# cpp: a precompiled <bits/stdc++.h> (competitive programmers include it; ~2 s → ~0.5 s per
# compile). Built from the system's own header (no untrusted input), on the host, once per g++
# version; the engine binds it read-only at /opt/pch and uses it only if `flags` matches its own.
# Keep PCH_FLAGS equal to CPP_FLAGS in languages/kit/detect/gcc.ts.
PCH_FLAGS="-std=c++20 -O2 -pipe"
build_pch() {
  [ -x /usr/bin/g++ ] || return 0
  local version header dir tmp
  version=$(/usr/bin/g++ -dumpfullversion) || return 0
  dir="/var/cache/codecell/pch/g++-$version"
  if [ -f "$dir/bits/stdc++.h.gch" ] && [ "$(cat "$dir/flags" 2>/dev/null)" = "$PCH_FLAGS" ]; then return 0; fi
  if $check_only; then
    printf 'provision: the C++ precompiled header is missing (optional; cpp compiles are slower); run:\n  scripts/provision.sh\n' >&2
    return 0
  fi
  [ "$(id -u)" -eq 0 ] || return 0
  header=$(echo '#include <bits/stdc++.h>' | /usr/bin/g++ -std=c++20 -H -fsyntax-only -x c++ - 2>&1 | sed -n 's/^\. //p' | head -1)
  [ -f "$header" ] || return 0
  echo "provision: building the C++ precompiled header for g++ $version" >&2
  mkdir -p /var/cache/codecell/pch
  tmp=$(mktemp -d /var/cache/codecell/pch/.build-XXXXXX)
  mkdir -p "$tmp/bits"
  cp "$header" "$tmp/bits/stdc++.h"
  # shellcheck disable=SC2086
  if /usr/bin/g++ $PCH_FLAGS -x c++-header -o "$tmp/bits/stdc++.h.gch" "$tmp/bits/stdc++.h"; then
    printf '%s' "$PCH_FLAGS" > "$tmp/flags"
    chmod -R a+rX "$tmp"
    rm -rf "$dir"
    mv "$tmp" "$dir"
  else
    rm -rf "$tmp"
    echo "provision: warning: could not build the C++ precompiled header (cpp still works, slower)" >&2
  fi
}

# java: a class-data-sharing archive of javac's own classes (javac starts ~35 % faster). Made by
# compiling a sample of our own on the host, once per JDK; the engine binds it read-only at
# /opt/javac-cds only if `flags` matches. Keep JAVAC_FLAGS equal to JAVAC_JVM_FLAGS in detect/jdk.ts.
JAVAC_FLAGS="-J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -J-XX:-UsePerfData -J-Xmx640m -J-XX:ActiveProcessorCount=2"
build_javac_cds() { # every JDK the node may offer: the system default and the others under /usr/lib/jvm
  local javac home
  declare -A seen=()
  for javac in /usr/bin/javac /usr/lib/jvm/*/bin/javac; do
    [ -x "$javac" ] || continue
    home=$(dirname "$(dirname "$(readlink -f "$javac")")")
    [ -z "${seen[$home]:-}" ] || continue
    seen[$home]=1
    build_javac_cds_for "$home"
  done
}
build_javac_cds_for() { # build_javac_cds_for JDK_HOME
  local home=$1 release dir tmp
  [ -f "$home/release" ] || return 0
  release=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"$/\1/p' "$home/release")
  [ -n "$release" ] || return 0
  dir="/var/cache/codecell/javac-cds/$(basename "$home")-$release"
  if [ -f "$dir/javac.jsa" ] && [ "$(cat "$dir/flags" 2>/dev/null)" = "$JAVAC_FLAGS" ]; then return 0; fi
  $check_only && return 0
  [ "$(id -u)" -eq 0 ] || return 0
  mkdir -p /var/cache/codecell/javac-cds
  tmp=$(mktemp -d /var/cache/codecell/javac-cds/.build-XXXXXX)
  cat > "$tmp/Sample.java" <<'JAVA'
import java.io.*;
import java.util.*;
import java.util.function.*;
import java.util.stream.*;
public class Sample {
  record Point(int x, int y) {}
  enum Kind { A, B }
  interface Shape { double area(); }
  static <T extends Comparable<T>> T max(List<T> xs) { return Collections.max(xs); }
  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    StringTokenizer st = new StringTokenizer("1 2 3");
    Map<String, List<Integer>> m = new HashMap<>();
    m.computeIfAbsent("a", k -> new ArrayList<>()).add(Integer.parseInt(st.nextToken()));
    List<Point> ps = IntStream.range(0, 10).mapToObj(i -> new Point(i, i * i)).collect(Collectors.toList());
    Function<Integer, Integer> f = x -> x + 1;
    Shape s = () -> 1.0;
    long[] a = new long[5]; Arrays.sort(a);
    PriorityQueue<long[]> pq = new PriorityQueue<>((p, q) -> Long.compare(p[0], q[0]));
    var sb = new StringBuilder();
    switch (Kind.A) { case A -> sb.append("a"); default -> sb.append("b"); }
    try { System.out.println(max(List.of(1, 2)) + f.apply(2) + s.area() + sb.toString() + ps.size() + pq.size()); }
    catch (RuntimeException e) { throw new IllegalStateException(e); }
  }
}
JAVA
  # shellcheck disable=SC2086
  if (cd "$tmp" && "$home/bin/javac" $JAVAC_FLAGS -J-XX:ArchiveClassesAtExit="$tmp/javac.jsa" -d classes Sample.java >/dev/null 2>&1) \
    && [ -f "$tmp/javac.jsa" ]; then
    rm -rf "$tmp/classes" "$tmp/Sample.java"
    printf '%s' "$JAVAC_FLAGS" > "$tmp/flags"
    chmod -R a+rX "$tmp"
    rm -rf "$dir"
    mv "$tmp" "$dir"
  else
    rm -rf "$tmp"
  fi
}

# Extra versions and curated libraries (docs/languages.md, "Versions and libraries"), best effort:
# what cannot be installed is not offered, nothing else changes. Each is installed only if missing;
# the node finds them at start-up by themselves (/usr/lib/go-*, $TOOLCHAINS/node-*, the packages' files).
#   - go: golang-<v>-go from Debian's backports suite (bookworm-backports) → /usr/lib/go-<v>;
#   - javascript/typescript: Node <major> from the npm registry's platform package
#     node-linux-<arch>@<major> (the bare binary, no install script) → $TOOLCHAINS/node-<major>;
#   - libraries: Debian packages (the node lists those named in languages/kit/libraries.ts).
# Java: Debian 12 has OpenJDK 17 only; a newer JDK already under /usr/lib/jvm is offered as well.
EXTRA_GO_VERSIONS=(1.23)
EXTRA_NODE_MAJORS=(22)
LIBRARY_PACKAGES=(python3-numpy)
TOOLCHAINS=/opt/codecell-toolchains

warn() { printf 'provision: warning: %s\n' "$*" >&2; }

# The backports suite of this Debian release, as its own sources file (nothing else changes: apt
# takes a package from backports only when no other suite has it).
add_backports() {
  local codename file=/etc/apt/sources.list.d/codecell-backports.sources
  codename=$(. /etc/os-release 2>/dev/null && [ "${ID:-}" = debian ] && echo "${VERSION_CODENAME:-}") || true
  [ -n "$codename" ] || return 1
  grep -rqs -- "$codename-backports" /etc/apt/sources.list /etc/apt/sources.list.d/ && return 0
  {
    printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: %s-backports\n' "$codename"
    printf 'Components: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
  } > "$file"
  apt-get update -qq >/dev/null 2>&1 || true
}

apt_extra() { # apt_extra PACKAGE...: install, updating the lists once if they do not know a package
  apt-cache show "$@" >/dev/null 2>&1 || apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1
}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

node_arch() {
  case "$(uname -m)" in x86_64) echo x64 ;; aarch64) echo arm64 ;; *) return 1 ;; esac
}

node_is() { # node_is BINARY MAJOR
  [ -x "$1" ] && "$1" -e "process.exit(process.versions.node.split('.')[0] === '$2' ? 0 : 1)" 2>/dev/null
}

install_extra_node() { # install_extra_node MAJOR
  local major=$1 dir="$TOOLCHAINS/node-$1" arch tmp tarball
  arch=$(node_arch) && command -v npm >/dev/null 2>&1 || { warn "Node $major not installed (needs npm on x64/arm64)"; return 0; }
  echo "provision: installing Node $major (npm node-linux-$arch@$major) into $dir" >&2
  mkdir -p "$TOOLCHAINS"
  chmod 755 "$TOOLCHAINS"
  tmp=$(mktemp -d "$TOOLCHAINS/.build-XXXXXX")
  if tarball=$(cd "$tmp" && npm pack --silent --ignore-scripts "node-linux-$arch@$major" 2>/dev/null | tail -1) &&
    tar -xzf "$tmp/$tarball" -C "$tmp" package/bin/node package/LICENSE && node_is "$tmp/package/bin/node" "$major"; then
    chown -R root:root "$tmp/package"
    chmod -R go-w "$tmp/package"
    rm -rf "$dir"
    mv "$tmp/package" "$dir"
    rm -rf "$tmp"
  else
    rm -rf "$tmp"
    warn "could not install Node $major from the npm registry; javascript/typescript offer the other versions"
  fi
}

install_extras() {
  local v p absent=() go=() node=() libs=()
  for v in "${EXTRA_GO_VERSIONS[@]}"; do [ -x "/usr/lib/go-$v/bin/go" ] || go+=("$v"); done
  for v in "${EXTRA_NODE_MAJORS[@]}"; do node_is "$TOOLCHAINS/node-$v/bin/node" "$v" || node+=("$v"); done
  for p in "${LIBRARY_PACKAGES[@]}"; do installed "$p" || libs+=("$p"); done
  absent=(${go[@]/#/go } ${node[@]/#/node } "${libs[@]}")
  [ ${#absent[@]} -eq 0 ] && return 0
  if $check_only || [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    printf 'provision: note: optional versions/libraries not installed (%s); run as root:\n  scripts/provision.sh\n' "${absent[*]}" >&2
    return 0
  fi
  for v in "${go[@]}"; do
    echo "provision: installing go $v (golang-$v-go from backports)" >&2
    { add_backports && apt_extra "golang-$v-go"; } || warn "could not install golang-$v-go; go offers the other versions"
  done
  if [ ${#libs[@]} -gt 0 ]; then
    echo "provision: installing ${libs[*]}" >&2
    apt_extra "${libs[@]}" || warn "could not install ${libs[*]}; those libraries are not listed"
  fi
  for v in "${node[@]}"; do install_extra_node "$v"; done
}

# go: Go >= 1.20 ships no precompiled standard library, so every sandboxed compile (with a fresh
# build cache) would rebuild fmt, runtime, ... (~10-30 s). Built once per Go version on the host
# (`go build std`, Go's own sources: no untrusted input) into a build cache that the node binds
# read-only as the compile's GOCACHE, only if `flags` matches. Keep GO_STD_CACHE_ENV equal to
# languages/go/detect.ts.
GO_STD_CACHE_ENV="CGO_ENABLED=0 GO111MODULE=off"
build_go_std_cache() {
  local go goroot version dir tmp
  for go in /usr/lib/go-*/bin/go; do
    [ -x "$go" ] || continue
    goroot=$(dirname "$(dirname "$(readlink -f "$go")")")
    [ -d "$goroot/pkg/$("$go" env GOOS)_$("$go" env GOARCH)" ] && continue # Go < 1.20: precompiled in GOROOT
    version=$(sed -n '1s/^go//p' "$goroot/VERSION" 2>/dev/null)
    [ -n "$version" ] || continue
    dir="/var/cache/codecell/go-build/go$version"
    if [ -d "$dir/cache" ] && [ "$(cat "$dir/flags" 2>/dev/null)" = "$GO_STD_CACHE_ENV" ]; then continue; fi
    if $check_only; then
      printf 'provision: the go %s standard-library cache is missing (optional; go %s compiles are slower); run:\n' "$version" "$version" >&2
      printf '  scripts/provision.sh\n' >&2
      continue
    fi
    [ "$(id -u)" -eq 0 ] || return 0
    echo "provision: building the go $version standard-library cache" >&2
    mkdir -p /var/cache/codecell/go-build
    tmp=$(mktemp -d /var/cache/codecell/go-build/.build-XXXXXX)
    # shellcheck disable=SC2086
    if env -i PATH=/usr/bin:/bin HOME="$tmp" GOCACHE="$tmp/cache" GOPATH="$tmp/go" GOTOOLCHAIN=local GOTELEMETRY=off GOFLAGS= $GO_STD_CACHE_ENV \
      "$go" build std >/dev/null 2>&1; then
      rm -rf "$tmp/go" "$tmp/.config"
      printf '%s' "$GO_STD_CACHE_ENV" > "$tmp/flags"
      chmod -R a+rX,go-w "$tmp"
      rm -rf "$dir"
      mv "$tmp" "$dir"
    else
      rm -rf "$tmp"
      warn "could not build the go $version standard-library cache (go $version still works, slower)"
    fi
  done
}

# Node 24 comes with `npm ci` (which .ci/run and a fresh checkout run after this script): only a note.
if ! $node_ok; then
  printf 'provision: note: javascript/typescript use the Node 24 of the `node` dev dependency, not installed yet; run:\n  npm ci\n' >&2
fi

if [ ${#missing[@]} -eq 0 ]; then
  install_extras
  build_pch
  build_javac_cds
  build_go_std_cache
  exit 0
fi

if [ ${#missing[@]} -gt 0 ]; then
  command="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
  if $check_only; then
    printf 'provision: missing toolchains:\n' >&2
    printf '  %s\n' "${notes[@]}" >&2
    printf 'provision: install them with (as root):\n  %s\n' "$command" >&2
    exit 1
  fi
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    printf 'provision: missing toolchains:\n' >&2
    printf '  %s\n' "${notes[@]}" >&2
    printf 'provision: cannot install them here (needs root and apt-get); run as root:\n  %s\n' "$command" >&2
    exit 1
  fi
  echo "provision: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  # `apt-get update` only when the package lists do not know a package yet.
  log=$(mktemp)
  install() { apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$log" 2>&1; }
  if ! apt-cache show "${missing[@]}" >/dev/null 2>&1; then
    apt-get update -qq >"$log" 2>&1 || true
  fi
  if ! install; then
    apt-get update -qq >"$log" 2>&1 || true
    if ! install; then
      tail -20 "$log" >&2
      rm -f "$log"
      printf 'provision: apt-get failed; run as root:\n  %s\n' "$command" >&2
      exit 1
    fi
  fi
  rm -f "$log"
fi

install_extras
build_pch
build_javac_cds
build_go_std_cache
