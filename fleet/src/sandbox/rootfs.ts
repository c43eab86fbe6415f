// What every sandbox root holds, whatever the language: the system's /usr read-only, the
// merged-/usr symlinks, and a handful of /etc files. Languages add their toolchains on top.
import { existsSync, lstatSync, mkdirSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Bind } from "./run-spec.ts";
import { writeNewFileNoFollow } from "./nofollow.ts";

export const SANDBOX_USER = "runner";

/** The fixed minimal environment of every program: nothing of the node's own variables. */
export const BASE_ENV: Readonly<Record<string, string>> = Object.freeze({
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/box",
  LANG: "C.UTF-8",
  LC_ALL: "C.UTF-8",
  TMPDIR: "/tmp",
  USER: SANDBOX_USER,
  LOGNAME: SANDBOX_USER,
});

export interface RootLayout {
  binds: Bind[];
  symlinks: { target: string; link: string }[];
}

/**
 * /bin, /lib, /lib64 and /sbin are symlinks into /usr on merged-/usr systems (Debian 12,
 * Ubuntu, Fedora); where they are real directories they are bound instead.
 */
export function baseRootLayout(etcDir: string): RootLayout {
  const binds: Bind[] = [{ hostPath: "/usr", sandboxPath: "/usr" }];
  const symlinks: RootLayout["symlinks"] = [];
  for (const dir of ["bin", "lib", "lib64", "sbin", "lib32", "libx32"]) {
    const host = `/${dir}`;
    if (!existsSync(host)) continue;
    if (lstatSync(host).isSymbolicLink()) symlinks.push({ target: `usr/${dir}`, link: host });
    else binds.push({ hostPath: host, sandboxPath: host });
  }
  // Files are copied into the sandbox's own root, so that /proc/self/mountinfo names no host path.
  for (const file of ["passwd", "group"]) binds.push({ hostPath: join(etcDir, file), sandboxPath: `/etc/${file}`, copy: true });
  for (const path of ["/etc/ld.so.cache", "/etc/localtime", "/etc/nsswitch.conf"]) {
    if (existsSync(path)) binds.push({ hostPath: realpathSync(path), sandboxPath: path, copy: true });
  }
  if (existsSync("/etc/alternatives")) binds.push({ hostPath: "/etc/alternatives", sandboxPath: "/etc/alternatives" });
  return { binds, symlinks };
}

/** Writes the sandbox's own passwd and group (a user and group per slot), never the host's. */
export function writeSandboxEtc(etcDir: string, ids: number[]): void {
  rmSync(etcDir, { recursive: true, force: true });
  mkdirSync(etcDir, { recursive: true, mode: 0o755 });
  const users = ids.map((id, slot) => `${SANDBOX_USER}${slot}:x:${id}:${id}::/box:/usr/sbin/nologin`);
  const groups = ids.map((id, slot) => `${SANDBOX_USER}${slot}:x:${id}:`);
  writeNewFileNoFollow(join(etcDir, "passwd"), ["root:x:0:0::/:/usr/sbin/nologin", ...users, ""].join("\n"), 0o644);
  writeNewFileNoFollow(join(etcDir, "group"), ["root:x:0:", ...groups, ""].join("\n"), 0o644);
}
