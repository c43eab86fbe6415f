// The seccomp policy the launcher installs (fleet/launcher/seccomp_policy.c, docs/sandbox.md
// "Seccomp"): its version, published with a node's isolation controls (NodeInfo), and the table
// the launcher prints with `--print-policy`.
import { spawnSync } from "node:child_process";

/** Must equal SECCOMP_POLICY in fleet/launcher/seccomp.h (test/sandbox/seccomp.test.ts checks). */
export const SECCOMP_POLICY_VERSION = "allow-list/1";

export interface SeccompPolicy {
  version: string;
  /** What an unlisted system call gets. */
  defaultAction: string;
  /** Listed calls by number: their name and action (allow, EPERM, ENOSYS, no-op, NAME-rule). */
  entries: Map<number, { name: string; action: string }>;
}

/** Asks the launcher binary for the policy compiled into it. */
export function launcherSeccompPolicy(launcherPath: string): SeccompPolicy {
  const out = spawnSync(launcherPath, ["--print-policy"], { encoding: "utf8", timeout: 5_000 });
  if (out.status !== 0) throw new Error(`${launcherPath} --print-policy: exit ${out.status} ${out.stderr ?? ""}`);
  const policy: SeccompPolicy = { version: "", defaultAction: "", entries: new Map() };
  for (const line of out.stdout.trim().split("\n")) {
    const [first, second, third] = line.split(" ");
    if (first === "version") policy.version = second ?? "";
    else if (first === "default") policy.defaultAction = second ?? "";
    else policy.entries.set(Number(first), { name: second ?? "", action: third ?? "" });
  }
  return policy;
}

/**
 * Why the launcher at `path` cannot be trusted to install this node's policy (a binary left from
 * another commit); null when it reports SECCOMP_POLICY_VERSION.
 */
export function launcherPolicyProblem(launcherPath: string): string | null {
  let version: string;
  try {
    version = launcherSeccompPolicy(launcherPath).version;
  } catch (error) {
    return `the launcher does not report its seccomp policy (${(error as Error).message.slice(0, 200)}); rebuild it: npm ci`;
  }
  if (version === SECCOMP_POLICY_VERSION) return null;
  return `the launcher installs seccomp policy ${JSON.stringify(version)}, this node expects ${SECCOMP_POLICY_VERSION}; rebuild it: npm ci`;
}
