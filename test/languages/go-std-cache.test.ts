// The node keeps the read-only Go standard-library cache from looking due for Go's daily trim
// (languages/go/std-cache.ts); the compiles that depend on it are in versions.test.ts.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { GO_STD_CACHE_PATH, goStdCacheDirs, keepTrimmed, markTrimmed } from "../../languages/go/std-cache.ts";
import type { Toolchain } from "../../languages/kit/language-spec.ts";

const DAY_S = 24 * 60 * 60;

describe("the Go standard-library cache's trim time", () => {
  it("is written as Go writes it, seconds since the epoch, by a rename: nothing else is left", () => {
    const dir = mkdtempSync(join(tmpdir(), "go-std-cache-"));
    try {
      writeFileSync(join(dir, "trim.txt"), String(Math.floor(Date.now() / 1000) - 2 * DAY_S));
      markTrimmed(dir, 1_795_800_310_123);
      assert.equal(readFileSync(join(dir, "trim.txt"), "utf8"), "1795800310");
      assert.deepEqual(readdirSync(dir), ["trim.txt"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is kept fresh for every detected cache; one that cannot be written is skipped", () => {
    const root = mkdtempSync(join(tmpdir(), "go-std-cache-"));
    const [a, b] = [join(root, "a"), join(root, "b")];
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(b, "trim.txt"), "1");
    const keeper = keepTrimmed([a, join(root, "missing"), b]);
    try {
      for (const dir of [a, b]) {
        const age = Date.now() / 1000 - Number(readFileSync(join(dir, "trim.txt"), "utf8"));
        assert.ok(age >= 0 && age < 60, `${dir}: ${age} s old`);
      }
    } finally {
      keeper.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("is kept for the binds at the cache's sandbox path only", () => {
    const toolchain = (binds: Toolchain["binds"]): Toolchain => ({ version: "1", aliases: [], binds, paths: {} });
    const go = [toolchain([{ hostPath: "/var/cache/x/cache", sandboxPath: GO_STD_CACHE_PATH }, { hostPath: "/opt/other", sandboxPath: "/opt/other" }]), toolchain([])];
    assert.deepEqual(goStdCacheDirs(go), ["/var/cache/x/cache"]);
    assert.deepEqual(goStdCacheDirs([]), []);
  });
});
