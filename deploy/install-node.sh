#!/usr/bin/env bash
# Installs a codecell fleet node on this host as the systemd service codecell-fleet.
#
#   sudo deploy/install-node.sh --edge https://codecell-edge.example.workers.dev --token-file ./enroll-token \
#        [--node-url https://node1.example.com:50052] [--prefix /opt/codecell]
#
# Idempotent: re-running updates the code and the unit, keeps /etc/codecell/fleet.env.
set -euo pipefail
prefix=/opt/codecell
edge="" token_file="" node_url=""
while [ $# -gt 0 ]; do
  case "$1" in
    --edge) edge=$2; shift 2 ;;
    --token-file) token_file=$2; shift 2 ;;
    --node-url) node_url=$2; shift 2 ;;
    --prefix) prefix=$2; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "install-node: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" -eq 0 ] || { echo "install-node: run as root" >&2; exit 1; }
src=$(cd "$(dirname "$0")/.." && pwd)

# 1. code, toolchains, dependencies
if [ "$src" != "$prefix" ]; then
  mkdir -p "$prefix"
  tar -C "$src" --exclude=./node_modules --exclude=./.state --exclude=./.wrangler --exclude=./.git -cf - . | tar -C "$prefix" -xf -
fi
"$prefix/scripts/provision.sh"
(cd "$prefix" && npm ci --no-audit --no-fund)

# 2. settings and secrets (kept on re-install)
install -d -m 0700 /etc/codecell
if [ ! -f /etc/codecell/fleet.env ]; then
  install -m 0600 "$src/deploy/fleet.env.example" /etc/codecell/fleet.env
  [ -n "$edge" ] && sed -i "s|^CODECELL_EDGE_URL=.*|CODECELL_EDGE_URL=$edge|" /etc/codecell/fleet.env
  [ -n "$node_url" ] && sed -i "s|^CODECELL_NODE_URL=.*|CODECELL_NODE_URL=$node_url|" /etc/codecell/fleet.env
  echo "install-node: wrote /etc/codecell/fleet.env — review it (TLS certificate, node URL, name)"
fi
if [ -n "$token_file" ]; then install -m 0600 "$token_file" /etc/codecell/enroll-token; fi
[ -f /etc/codecell/fleet-token ] || (umask 077 && head -c 32 /dev/urandom | base64 | tr -d '\n=' > /etc/codecell/fleet-token)

# 3. the service
install -m 0644 "$src/deploy/codecell-fleet.service" /etc/systemd/system/codecell-fleet.service
sed -i "s|/opt/codecell|$prefix|g" /etc/systemd/system/codecell-fleet.service
systemctl daemon-reload
systemctl enable --now codecell-fleet
echo "install-node: codecell-fleet is running; follow it with: journalctl -u codecell-fleet -f"
