// Node (javascript and typescript): the project's own Node 24, else the system's, then the extra
// versions scripts/provision.sh installs under TOOLCHAINS_DIR (trusted only if root-only).
import { lstatSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Toolchain } from "../language-spec.ts";
import { compareVersionsDescending, entries, executable, match, output, present, shortVersion } from "./host.ts";

/** Where scripts/provision.sh puts toolchains that come from the npm registry (Node 22). */
export const TOOLCHAINS_DIR = "/opt/codecell-toolchains";

/** Oldest Node offered: type stripping (TypeScript) without a flag since 22.18. */
const MIN_NODE = [22, 18];

/**
 * A file under TOOLCHAINS_DIR is trusted (run on the host at start-up, bound into sandboxes) only
 * if root owns it and every directory from it up to TOOLCHAINS_DIR, and only root can write them.
 */
function rootOnly(path: string): boolean {
  const chain = [path];
  while (chain.at(-1) !== TOOLCHAINS_DIR && chain.at(-1)!.startsWith(`${TOOLCHAINS_DIR}/`)) chain.push(dirname(chain.at(-1)!));
  if (chain.at(-1) !== TOOLCHAINS_DIR) return false;
  try {
    return chain.every((p) => {
      const stat = lstatSync(p);
      return !stat.isSymbolicLink() && stat.uid === 0 && (stat.mode & 0o022) === 0;
    });
  } catch {
    return false;
  }
}

/**
 * The project's own Node 24 (the `node` dev dependency, the default), else the one running this
 * process; then the extra versions scripts/provision.sh installs, newest first.
 */
function nodeCandidates(): string[] {
  // This file is languages/kit/detect/: three levels below the repository root.
  const projectNode = join(import.meta.dirname, "..", "..", "..", "node_modules", "node", "bin", "node");
  const extras = entries(TOOLCHAINS_DIR)
    .filter((name) => /^node-\d+$/.test(name))
    .sort((a, b) => compareVersionsDescending(a.slice(5), b.slice(5)))
    .map((name) => join(TOOLCHAINS_DIR, name, "bin", "node"))
    .filter(rootOnly);
  return [projectNode, process.execPath, "/usr/bin/node", "/usr/local/bin/node", ...extras];
}

async function nodeToolchain(hostPath: string): Promise<Toolchain | undefined> {
  const version = match(await output(hostPath, ["--version"]), /^v(\d+\.\d+\.\d+)/);
  const [major = 0, minor = 0] = version?.split(".").map(Number) ?? [];
  if (!version || major < MIN_NODE[0]! || (major === MIN_NODE[0] && minor < MIN_NODE[1]!)) return undefined;
  return {
    version,
    aliases: [String(major), shortVersion(version, 2), `v${version}`],
    binds: [{ hostPath, sandboxPath: "/opt/node/bin/node" }],
    paths: { node: "/opt/node/bin/node" },
  };
}

let nodeDetection: Promise<Toolchain[]> | undefined;
/** Shared by javascript and typescript: the node binary alone, bound at /opt/node/bin/node. */
export function detectNode(): Promise<Toolchain[]> {
  nodeDetection ??= (async () => {
    const binaries = [...new Set(nodeCandidates().filter(executable).map((path) => realpathSync(path)))];
    return present(await Promise.all(binaries.map(nodeToolchain)));
  })();
  return nodeDetection;
}
