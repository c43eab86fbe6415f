// The compile cache: content-addressed (language, toolchain version, compile command and
// environment, source) → compiled artifact, on the node's disk under the engine's stateDir, with
// a size cap and LRU eviction. Only the host writes here, through the no-follow file layer (a new
// temp name, then rename); programs see an artifact only as a read-only bind of that one file.
// The key names the tenant (ExecuteRequest.tenant_id, the edge's account id): a tenant's hits are
// its own compiles only, so how fast a source compiles never tells it what another tenant compiled.
// Fairness (docs/languages.md): an artifact above `maxArtifactBytes` is not cached, and each tenant
// (ExecuteRequest.tenant_id) may hold at most `tenantShareBytes`: a tenant over its share evicts
// its own least recently used artifacts first, so one tenant cannot flush everyone else's.
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync, unlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { writeNewFileNoFollowAsync } from "../sandbox/nofollow.ts";

export const DEFAULT_COMPILE_CACHE_BYTES = 512 * 1024 * 1024;

export interface CacheFairness {
  /** Largest artifact kept (default: an eighth of the cache). */
  maxArtifactBytes?: number;
  /** Most one tenant may hold (default: a quarter of the cache). */
  tenantShareBytes?: number;
}

/** Owner of artifacts found on disk at start-up: nobody's share, evicted by age alone. */
const RESTORED = "\0restored";

const KEY = /^[0-9a-f]{64}$/;

interface Entry {
  size: number;
  /** The tenant whose run stored it (first writer; a later hit by another tenant does not move it). */
  tenant: string;
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
  readonly maxArtifactBytes: number;
  readonly tenantShareBytes: number;
  readonly #tenantBytes = new Map<string, number>();
  /** Map order is LRU order: oldest first. */
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;
  #tempCounter = 0;

  constructor(dir: string, capBytes = DEFAULT_COMPILE_CACHE_BYTES, fairness: CacheFairness = {}) {
    this.dir = dir;
    this.capBytes = capBytes;
    this.maxArtifactBytes = Math.min(capBytes, fairness.maxArtifactBytes ?? Math.floor(capBytes / 8));
    this.tenantShareBytes = Math.max(this.maxArtifactBytes, fairness.tenantShareBytes ?? Math.floor(capBytes / 4));
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
    for (const { key, size } of found) this.#add(key, { size, tenant: RESTORED, pins: 0 });
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

  /** Bytes the tenant's artifacts take. */
  tenantBytes(tenant: string): number {
    return this.#tenantBytes.get(tenant) ?? 0;
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

  /**
   * Stores an artifact (new temp file, then rename) and returns it pinned; undefined if it cannot
   * (too large, or the tenant's share is held by artifacts in use): the run then gets a private copy.
   */
  async store(key: string, content: Uint8Array, executable: boolean, tenant = ""): Promise<CacheLease | undefined> {
    if (!KEY.test(key) || content.byteLength > this.maxArtifactBytes) return undefined;
    const before = this.#entries.get(key);
    const owner = before?.tenant ?? tenant;
    const growth = content.byteLength - (before?.size ?? 0);
    if (owner !== RESTORED && !this.#makeRoomInShare(owner, growth, key)) return undefined;
    const path = join(this.dir, key);
    const temp = join(this.dir, `.tmp-${process.pid}-${this.#tempCounter++}`);
    try {
      // Off the event loop (an artifact may be tens of MiB); the bookkeeping below stays synchronous.
      await writeNewFileNoFollowAsync(temp, content, executable ? 0o755 : 0o644);
      renameSync(temp, path);
    } catch {
      rmSync(temp, { force: true });
      return undefined;
    }
    // Another store of the same key may have finished meanwhile: this one replaces it.
    const existing = this.#entries.get(key);
    const entry = existing ?? { size: 0, tenant, pins: 0 };
    if (existing) this.#drop(key, existing);
    entry.size = content.byteLength;
    this.#add(key, entry);
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

  /** Evicts the tenant's own least recently used artifacts until `growth` more bytes fit its share. */
  #makeRoomInShare(tenant: string, growth: number, keep: string): boolean {
    if (this.tenantBytes(tenant) + growth <= this.tenantShareBytes) return true;
    for (const [key, entry] of this.#entries) {
      if (this.tenantBytes(tenant) + growth <= this.tenantShareBytes) break;
      if (entry.tenant === tenant && entry.pins === 0 && key !== keep) this.#remove(key, entry);
    }
    return this.tenantBytes(tenant) + growth <= this.tenantShareBytes;
  }

  #evict(): void {
    if (this.#bytes <= this.capBytes) return;
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.capBytes) break;
      if (entry.pins > 0) continue;
      this.#remove(key, entry);
    }
  }

  #remove(key: string, entry: Entry): void {
    this.#drop(key, entry);
    try {
      unlinkSync(join(this.dir, key));
    } catch {
      // already gone
    }
  }

  #add(key: string, entry: Entry): void {
    this.#entries.set(key, entry);
    this.#bytes += entry.size;
    this.#tenantBytes.set(entry.tenant, this.tenantBytes(entry.tenant) + entry.size);
  }

  #drop(key: string, entry: Entry): void {
    if (this.#entries.get(key) !== entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.size;
    const left = this.tenantBytes(entry.tenant) - entry.size;
    if (left > 0) this.#tenantBytes.set(entry.tenant, left);
    else this.#tenantBytes.delete(entry.tenant);
  }
}
