// The read-only standard-library build cache of Go ≥ 1.20 (detect.ts binds it into compiles).
//
// Go trims its build cache at most once a day, on the way out of any `go` command: when the cache's
// trim.txt says the last trim is a day old or more, it trims and rewrites trim.txt. The compiles'
// cache is read-only, so a day after it was built every Go compile failed ("go: failed to trim
// cache: open /opt/go-cache/trim.txt: read-only file system"). It needs no trimming (it holds the
// standard library, built once), so the node keeps its trim.txt saying "trimmed just now": at
// start and every hour, each time a new file renamed over the old, so a compile reading it at that
// moment sees one whole time or the other.
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Toolchain } from "../kit/language-spec.ts";

/** Where compiles see the cache. */
export const GO_STD_CACHE_PATH = "/opt/go-cache";
/** Well within Go's day, and no load to speak of. */
const REFRESH_MS = 60 * 60 * 1000;

/** The host directories of the detected Go versions' standard-library caches. */
export function goStdCacheDirs(toolchains: readonly Toolchain[]): string[] {
  return toolchains.flatMap((toolchain) => toolchain.binds.filter((bind) => bind.sandboxPath === GO_STD_CACHE_PATH).map((bind) => bind.hostPath));
}

/** Writes DIR/trim.txt as Go does: the time of the last trim, in seconds since the epoch. */
export function markTrimmed(dir: string, now = Date.now()): void {
  const fresh = join(dir, `.trim.txt.${process.pid}`);
  writeFileSync(fresh, String(Math.floor(now / 1000)));
  renameSync(fresh, join(dir, "trim.txt"));
}

/** Marks every cache trimmed now and every hour after, until stopped. */
export function keepTrimmed(dirs: string[]): { stop(): void } {
  const refresh = () => {
    for (const dir of dirs) {
      try {
        markTrimmed(dir);
      } catch {
        // a compile then fails with Go's own message, which names the file
      }
    }
  };
  refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
