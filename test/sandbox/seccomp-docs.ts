// The seccomp policy as docs/sandbox.md writes it down, and x86-64 system call numbers by name,
// for test/sandbox/seccomp.test.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");

/** Rule by system call name, from the table under docs/sandbox.md's "Seccomp". */
export function documentedPolicy(): Map<string, string> {
  const text = readFileSync(join(ROOT, "docs", "sandbox.md"), "utf8");
  const start = text.indexOf("| Calls | Rule | Why |");
  if (start < 0) throw new Error("docs/sandbox.md: the seccomp table is missing");
  const rules = new Map<string, string>();
  for (const line of text.slice(start).split("\n").slice(2)) {
    if (!line.startsWith("|")) break;
    const [calls = "", rule = ""] = line.split("|").slice(1, 3);
    for (const [, name] of calls.matchAll(/`([a-z0-9_]+)`/g)) {
      if (rules.has(name!)) throw new Error(`docs/sandbox.md: ${name} is in the seccomp table twice`);
      rules.set(name!, rule.trim());
    }
  }
  return rules;
}

/** Numbers newer than the build machine's headers may know (x86-64 numbers never change). */
const NEWER: Record<string, number> = { fchmodat2: 452, futex_wake: 454, futex_wait: 455, futex_requeue: 456, open_tree_attr: 467 };

/** x86-64 system call numbers by name: the installed kernel headers, plus NEWER. */
export function syscallNumbers(): Map<string, number> {
  const header = readFileSync("/usr/include/x86_64-linux-gnu/asm/unistd_64.h", "utf8");
  const numbers = new Map(Object.entries(NEWER));
  for (const [, name, nr] of header.matchAll(/^#define __NR_(\w+) (\d+)$/gm)) numbers.set(name!, Number(nr));
  return numbers;
}

/** What a refused call returns: "errno N", or "0" for a no-op. Undefined: allowed or an argument rule. */
export function refusal(rule: string | undefined): string | undefined {
  if (rule === undefined || rule === "ENOSYS") return "errno 38";
  if (rule === "EPERM") return "errno 1";
  if (rule === "no-op") return "0";
  return undefined;
}
