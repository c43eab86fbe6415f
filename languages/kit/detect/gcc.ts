// C and C++: the system gcc and g++; for C++ also the precompiled <bits/stdc++.h> from
// scripts/provision.sh when it matches.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Toolchain } from "../language-spec.ts";
import { executable, match, one, output, shortVersion } from "./host.ts";

/** The cpp compile flags. Keep equal to PCH_FLAGS in scripts/provision.sh. */
export const CPP_FLAGS = ["-std=c++20", "-O2", "-pipe"];
const PCH_ROOT = "/var/cache/codecell/pch";

async function gccFamily(compiler: "gcc" | "g++"): Promise<Toolchain | undefined> {
  const path = `/usr/bin/${compiler}`;
  if (!executable(path)) return undefined;
  const version = match(await output(path, ["-dumpfullversion"]), /^(\S+)/);
  return version ? { version, aliases: [shortVersion(version, 1), `${compiler} ${version}`], binds: [], paths: { [compiler]: path } } : undefined;
}

export const detectGcc = (): Promise<Toolchain[]> => one(gccFamily("gcc"));

export async function detectGxx(): Promise<Toolchain[]> {
  const toolchain = await gccFamily("g++");
  if (!toolchain) return [];
  // The precompiled <bits/stdc++.h> that scripts/provision.sh builds, if its flags are ours.
  const pch = join(PCH_ROOT, `g++-${toolchain.version}`);
  try {
    if (readFileSync(join(pch, "flags"), "utf8") === CPP_FLAGS.join(" ") && statSync(join(pch, "bits", "stdc++.h.gch")).isFile()) {
      toolchain.binds.push({ hostPath: pch, sandboxPath: "/opt/pch" });
      toolchain.paths.pch = "/opt/pch";
    }
  } catch {
    // no precompiled header: slower compiles of <bits/stdc++.h>, same results
  }
  return [toolchain];
}
