// `npm pack` of client/ and an install of the tarball into a fresh directory, as a user would.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../edge/harness.ts";

export interface Installed {
  dir: string;
  files: string[];
}

export function packAndInstall(tmp: string): Installed {
  const env = { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", tmp], { cwd: join(ROOT, "client"), env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const [info] = JSON.parse(out.slice(out.indexOf("["))) as { filename: string; files: { path: string }[] }[];
  const dir = join(tmp, "app");
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  execFileSync("npm", ["install", "--offline", "--no-save", join(tmp, info!.filename)], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  return { dir, files: info!.files.map((f) => f.path).sort() };
}
