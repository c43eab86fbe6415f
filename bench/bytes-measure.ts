// bench:bytes's measuring instruments: a process's resident memory and its peak (/proc), and what
// the edge's submission store holds on disk (the SubmissionDO namespace's SQLite files).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

// ---- memory ----

export interface Mem {
  /** Resident now (VmRSS), bytes. */
  rss: number;
  /** Peak resident since the process started or since resetPeak (VmHWM), bytes. */
  hwm: number;
  /** Of VmRSS: anonymous (malloc'd, V8's heap pages), file-backed (the binary's pages), shared memory (RssAnon, RssFile, RssShmem). */
  anon: number;
  file: number;
  shmem: number;
}

/** VmRSS and VmHWM of a process; null once it has exited. */
export function mem(pid: number): Mem | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
    const m = { rss: kb("VmRSS"), hwm: kb("VmHWM"), anon: kb("RssAnon"), file: kb("RssFile"), shmem: kb("RssShmem") };
    // A zombie (exited, not yet reaped) has a status without memory lines: gone too.
    return Number.isFinite(m.rss) && Number.isFinite(m.hwm) ? m : null;
  } catch {
    return null;
  }
}

/**
 * Resets the process's peak resident size to its resident size now ("5" to clear_refs, Linux ≥ 4.0;
 * root or the process's owner) and returns the resident size then: the base a later VmHWM is
 * measured against.
 */
export function resetPeak(pid: number): Mem | null {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    return null;
  }
  return mem(pid);
}

/**
 * A copy of /proc/<pid>/smaps (every mapping's resident, anonymous, file-backed pages) into `dir`
 * as `name`, when BENCH_BYTES_SMAPS_DIR names a directory (to study what grows); else nothing.
 */
export function saveSmaps(pid: number, name: string): void {
  const dir = process.env.BENCH_BYTES_SMAPS_DIR;
  if (!dir) return;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.smaps`), readFileSync(`/proc/${pid}/smaps`, "utf8"));
  } catch {
    // the process is gone
  }
}

// ---- storage ----

/** What the submission store holds at one moment. */
export interface StoreSnapshot {
  /** db + -wal + -shm files of the namespace, as their sizes on disk say (lumpy: the WAL is reused, not shrunk). */
  fileBytes: number;
  /**
   * Pages in use of the namespace's databases once their WAL is applied (page_count −
   * freelist_count, × page_size): what the databases hold, B-tree overhead included, pages freed
   * by deletes not counted.
   */
  usedBytes: number;
  /** Key + value bytes of every row (every table), summed. */
  rowBytes: number;
  /** Row bytes by the submission id a row belongs to (a text column starting with a UUID: a KV key `<id>/…`, a `sub_id`). */
  byOwner: Map<string, number>;
  databases: number;
}

const EMPTY: StoreSnapshot = { fileBytes: 0, usedBytes: 0, rowBytes: 0, byOwner: new Map(), databases: 0 };

/** The SubmissionDO namespace's directory under an edge's --persist-to dir (state under v3/do/<script>-<class>). */
export function submissionStoreDir(persistDir: string): string | null {
  const doDir = join(persistDir, "v3", "do");
  if (!existsSync(doDir)) return null;
  const name = readdirSync(doDir).find((d) => d.endsWith("-SubmissionDO"));
  return name ? join(doDir, name) : null;
}

/**
 * The store's files and contents. Each database is copied with its WAL (never opened in place:
 * workerd holds it) and the copy opened, which applies the WAL as SQLite would. Taken when the
 * edge is quiet (after a scenario has completed and been read), so the copy is one commit's state.
 */
export function snapshotStore(persistDir: string): StoreSnapshot {
  const dir = submissionStoreDir(persistDir);
  if (!dir) return EMPTY;
  const snap: StoreSnapshot = { fileBytes: 0, usedBytes: 0, rowBytes: 0, byOwner: new Map(), databases: 0 };
  const scratch = mkdtempSync(join(tmpdir(), "codecell-bytes-db-"));
  try {
    for (const name of readdirSync(dir)) {
      try {
        snap.fileBytes += statSync(join(dir, name)).size;
      } catch {
        // gone meanwhile
      }
    }
    for (const name of readdirSync(dir).filter((n) => n.endsWith(".sqlite"))) {
      const copy = join(scratch, name);
      try {
        copyFileSync(join(dir, name), copy);
        if (existsSync(join(dir, `${name}-wal`))) copyFileSync(join(dir, `${name}-wal`), `${copy}-wal`);
      } catch {
        continue;
      }
      measureDb(copy, snap);
      snap.databases++;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return snap;
}

const q = (ident: string) => `"${ident.replaceAll('"', '""')}"`;

function measureDb(path: string, snap: StoreSnapshot): void {
  const db = new DatabaseSync(path);
  try {
    const pragma = (name: string) => Number((db.prepare(`PRAGMA ${name}`).get() as Record<string, number>)[name]);
    snap.usedBytes += (pragma("page_count") - pragma("freelist_count")) * pragma("page_size");
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").all() as { name: string }[];
    for (const { name } of tables) {
      const cols = (db.prepare(`PRAGMA table_info(${q(name)})`).all() as { name: string }[]).map((c) => q(c.name));
      if (cols.length === 0) continue;
      // Bytes of a value as stored: text in UTF-8, blobs as they are, a number 8, NULL 0.
      const bytes = cols
        .map((c) => `CASE typeof(${c}) WHEN 'text' THEN length(CAST(${c} AS BLOB)) WHEN 'blob' THEN length(${c}) WHEN 'null' THEN 0 ELSE 8 END`)
        .join(" + ");
      // The row's owner: the first text column that starts with a UUID (8-4-4-4-12).
      const uuidAt = (c: string) =>
        `typeof(${c}) = 'text' AND substr(${c}, 9, 1) = '-' AND substr(${c}, 14, 1) = '-' AND substr(${c}, 19, 1) = '-' AND substr(${c}, 24, 1) = '-'`;
      const owner = `CASE ${cols.map((c) => `WHEN ${uuidAt(c)} THEN lower(substr(${c}, 1, 36))`).join(" ")} ELSE '' END`;
      const rows = db.prepare(`SELECT ${owner} AS owner, sum(${bytes}) AS bytes FROM ${q(name)} GROUP BY owner`).all() as { owner: string; bytes: number }[];
      for (const r of rows) {
        snap.rowBytes += Number(r.bytes);
        snap.byOwner.set(r.owner, (snap.byOwner.get(r.owner) ?? 0) + Number(r.bytes));
      }
    }
  } finally {
    db.close();
  }
}
