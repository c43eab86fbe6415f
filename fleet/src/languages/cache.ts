// The compile cache: content-addressed (language, toolchain version, compile command and
// environment, source) → compiled artifact, on the node's disk under the engine's stateDir, with
// a size cap and LRU eviction. Only the host writes here, through the no-follow file layer (a new
// temp name, then rename); programs see an artifact only as a read-only bind of that one file.
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync, unlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { writeNewFileNoFollow } from "../sandbox/nofollow.ts";

export const DEFAULT_COMPILE_CACHE_BYTES = 512 * 1024 * 1024;

const KEY = /^[0-9a-f]{64}$/;

interface Entry {
  size: number;
  /** Runs currently using the file: eviction skips it. */
  pins: number;
}

export interface CacheLease {
  path: string;
  release(): void;
}

export class CompileCache {
  readonly dir: string;
  readonly capBytes: number;
  /** Map order is LRU order: oldest first. */
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;
  #tempCounter = 0;

  constructor(dir: string, capBytes = DEFAULT_COMPILE_CACHE_BYTES) {
    this.dir = dir;
    this.capBytes = capBytes;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Entries from an earlier run of the node, oldest use first; leftovers of interrupted writes go.
    const found: { key: string; size: number; mtimeMs: number }[] = [];
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (KEY.test(name) && stat?.isFile() && stat.nlink === 1) found.push({ key: name, size: stat.size, mtimeMs: stat.mtimeMs });
      else rmSync(path, { recursive: true, force: true });
    }
    found.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const { key, size } of found) {
      this.#entries.set(key, { size, pins: 0 });
      this.#bytes += size;
    }
    this.#evict();
  }

  static key(parts: unknown): string {
    return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
  }

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** A hit pins the artifact until `release()` so eviction cannot pull it from under a run. */
  lookup(key: string): CacheLease | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    const path = join(this.dir, key);
    if (!lstatSync(path, { throwIfNoEntry: false })?.isFile()) {
      this.#drop(key, entry);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    try {
      const now = new Date();
      utimesSync(path, now, now); // LRU order survives a restart
    } catch {
      // best effort
    }
    return this.#pin(key, entry);
  }

  /** Stores an artifact (new temp file, then rename) and returns it pinned; undefined if it cannot. */
  store(key: string, content: Uint8Array, executable: boolean): CacheLease | undefined {
    if (!KEY.test(key) || content.byteLength > this.capBytes) return undefined;
    const path = join(this.dir, key);
    const temp = join(this.dir, `.tmp-${process.pid}-${this.#tempCounter++}`);
    try {
      writeNewFileNoFollow(temp, content, executable ? 0o755 : 0o644);
      renameSync(temp, path);
    } catch {
      rmSync(temp, { force: true });
      return undefined;
    }
    const existing = this.#entries.get(key);
    if (existing) {
      this.#bytes += content.byteLength - existing.size;
      existing.size = content.byteLength;
      this.#entries.delete(key);
      this.#entries.set(key, existing);
    } else {
      this.#entries.set(key, { size: content.byteLength, pins: 0 });
      this.#bytes += content.byteLength;
    }
    const entry = this.#entries.get(key)!;
    const lease = this.#pin(key, entry);
    this.#evict();
    return lease;
  }

  #pin(key: string, entry: Entry): CacheLease {
    entry.pins++;
    let released = false;
    return {
      path: join(this.dir, key),
      release: () => {
        if (released) return;
        released = true;
        entry.pins--;
        if (entry.pins === 0) this.#evict();
      },
    };
  }

  #evict(): void {
    if (this.#bytes <= this.capBytes) return;
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.capBytes) break;
      if (entry.pins > 0) continue;
      this.#drop(key, entry);
      try {
        unlinkSync(join(this.dir, key));
      } catch {
        // already gone
      }
    }
  }

  #drop(key: string, entry: Entry): void {
    if (this.#entries.get(key) !== entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.size;
  }
}
