// Java: the system default JDK, then every JDK under /usr/lib/jvm; javac's class-data-sharing
// archive from scripts/provision.sh when it matches.
import { existsSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Toolchain } from "../kit/language-spec.ts";
import { compareVersionsDescending, entries, executable, match, output, present, readText, shortVersion } from "../kit/detect/host.ts";

/** javac's own JVM: C1 only, serial GC, no perf file. Keep equal to JAVAC_FLAGS in scripts/provision.sh. */
export const JAVAC_JVM_FLAGS = ["-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1", "-J-XX:-UsePerfData", "-J-Xmx640m", "-J-XX:ActiveProcessorCount=2"];
const JAVAC_CDS_ROOT = "/var/cache/codecell/javac-cds";

/** Host directories outside /usr that a toolchain's symlinks point into (Debian's /etc/java-N-openjdk). */
function symlinkTargetsOutsideUsr(paths: string[]): string[] {
  const dirs = new Set<string>();
  for (const path of paths) {
    try {
      const target = readlinkSync(path);
      const parts = target.split("/");
      if (target.startsWith("/etc/") && parts.length > 3) dirs.add(parts.slice(0, 3).join("/"));
    } catch {
      // not a symlink
    }
  }
  return [...dirs].filter((dir) => existsSync(dir));
}

/** The system default JDK (Debian's alternatives) first, then every JDK under /usr/lib/jvm, newest first. */
function jdkHomes(): string[] {
  const homes: string[] = [];
  try {
    homes.push(dirname(dirname(realpathSync("/usr/bin/javac"))));
  } catch {
    // no alternative set
  }
  const others = entries("/usr/lib/jvm").flatMap((name) => {
    try {
      return [realpathSync(join("/usr/lib/jvm", name))];
    } catch {
      return [];
    }
  });
  const release = (home: string) => match(readText(join(home, "release")), /^JAVA_VERSION="([^"]+)"/m) ?? "0";
  homes.push(...others.sort((a, b) => compareVersionsDescending(release(a), release(b))));
  return homes;
}

/** A JDK home as a toolchain: its version from the `release` file (no JVM start), else from javac. */
async function jdkToolchain(home: string): Promise<Toolchain | undefined> {
  const javac = join(home, "bin", "javac");
  const java = join(home, "bin", "java");
  if (!home.startsWith("/usr/") || !executable(javac) || !executable(java) || !executable("/usr/bin/zip")) return undefined;
  const releaseFile = readText(join(home, "release"));
  const version =
    match(releaseFile, /^JAVA_VERSION="(\d[^"]*)"/m) ??
    match(await output(javac, ["-J-Xshare:auto", "-J-XX:TieredStopAtLevel=1", "-version"]), /javac (\S+)/);
  if (!version) return undefined;
  const runtimeVersion = match(releaseFile, /^JAVA_RUNTIME_VERSION="([^"]+)"/m);
  const links = ["conf", "lib", "lib/security"].flatMap((dir) => entries(join(home, dir)).map((name) => join(home, dir, name)));
  // Debian's JDK keeps its configuration in /etc/java-N-openjdk: bound read-only at the same path.
  const binds = symlinkTargetsOutsideUsr(links).map((dir) => ({ hostPath: dir, sandboxPath: dir }));
  const paths: Record<string, string> = { javac, java, zip: "/usr/bin/zip" };
  // javac's class-data-sharing archive from scripts/provision.sh, if made by this JDK with our flags.
  try {
    const cds = join(JAVAC_CDS_ROOT, `${basename(home)}-${runtimeVersion}`);
    if (runtimeVersion && readFileSync(join(cds, "flags"), "utf8") === JAVAC_JVM_FLAGS.join(" ") && statSync(join(cds, "javac.jsa")).isFile()) {
      binds.push({ hostPath: cds, sandboxPath: "/opt/javac-cds" });
      paths.javacCds = "/opt/javac-cds/javac.jsa";
    }
  } catch {
    // no archive: javac starts slower, same results
  }
  const aliases = [shortVersion(version, 1), ...(runtimeVersion && runtimeVersion !== version ? [runtimeVersion] : [])];
  return { version, aliases, binds, paths };
}

export async function detectJdks(): Promise<Toolchain[]> {
  const homes = [...new Set(jdkHomes())];
  return present(await Promise.all(homes.map(jdkToolchain)));
}
