// Rust: the first rustup toolchain found (the default one first), else Debian's /usr/bin/rustc.
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Toolchain } from "../kit/language-spec.ts";
import { executable, match, one, output, shortVersion } from "../kit/detect/host.ts";

function rustToolchainDirs(): string[] {
  const homes = [process.env.RUSTUP_HOME, join(homedir(), ".rustup"), "/root/.rustup"].filter((home): home is string => !!home);
  const found: string[] = [];
  for (const home of new Set(homes)) {
    let preferred: string | undefined;
    try {
      preferred = match(readFileSync(join(home, "settings.toml"), "utf8"), /^default_toolchain\s*=\s*"([^"]+)"/m);
    } catch {
      // no rustup settings
    }
    let names: string[] = [];
    try {
      names = readdirSync(join(home, "toolchains"));
    } catch {
      continue;
    }
    const ordered = [
      ...(preferred ? names.filter((name) => name === preferred) : []),
      ...names.filter((name) => name.startsWith("stable-")),
      ...names,
    ];
    for (const name of ordered) found.push(join(home, "toolchains", name));
  }
  return [...new Set(found)];
}

async function rustToolchain(): Promise<Toolchain | undefined> {
  const named = (version: string) => ({ version, aliases: [shortVersion(version, 2), `rustc ${version}`] });
  for (const dir of rustToolchainDirs()) {
    const rustc = join(dir, "bin", "rustc");
    if (!executable(rustc)) continue;
    const version = match(await output(rustc, ["--version"]), /^rustc (\S+)/);
    // The toolchain directory alone is bound, at a neutral path: never the home directory.
    if (version) return { ...named(version), binds: [{ hostPath: realpathSync(dir), sandboxPath: "/opt/rust" }], paths: { rustc: "/opt/rust/bin/rustc" } };
  }
  if (executable("/usr/bin/rustc")) {
    const version = match(await output("/usr/bin/rustc", ["--version"]), /^rustc (\S+)/);
    if (version) return { ...named(version), binds: [], paths: { rustc: "/usr/bin/rustc" } };
  }
  return undefined;
}

export const detectRust = (): Promise<Toolchain[]> => one(rustToolchain());
