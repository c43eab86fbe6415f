// Operator-issued enrollment tokens: only their SHA-256 is stored; the plain value is shown once.
// A token carries what a node that presents it may be: how many run slots it gets at most,
// whether it waits for an operator's approval, and how many nodes it enrolls (one by default).
// A use is one node address: the node at an address that already used the token (restarted, or
// back after it drained and left) is not a new use, unless it was revoked since.
import type { EnrollmentTokenRequest, EnrollmentTokenView } from "../contracts/fleet.ts";
import { randomBase62, sha256Hex } from "../lib/keys.ts";
import type { TokenGrant } from "./node-admission.ts";

interface TokenRow extends Record<string, SqlStorageValue> {
  id: string; hash: string; name: string; created: number; expires: number; uses: number; last_used: number;
  single_use: number; max_uses: number; max_slots: number; require_approval: number;
}

const iso = (ms: number) => (ms ? new Date(ms).toISOString() : null);

function view(r: TokenRow): EnrollmentTokenView {
  return {
    id: r.id, name: r.name, created_at: new Date(r.created).toISOString(), expires_at: iso(r.expires),
    uses: r.uses, last_used_at: iso(r.last_used), max_uses: r.max_uses > 0 ? r.max_uses : null, max_slots: r.max_slots,
    require_approval: r.require_approval === 1,
  };
}

export function createTokenTable(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS enroll_tokens (id TEXT PRIMARY KEY, hash TEXT UNIQUE NOT NULL, name TEXT NOT NULL,
    created INTEGER NOT NULL, expires INTEGER NOT NULL DEFAULT 0, uses INTEGER NOT NULL DEFAULT 0, last_used INTEGER NOT NULL DEFAULT 0,
    single_use INTEGER NOT NULL DEFAULT 0, max_slots INTEGER NOT NULL, require_approval INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE IF NOT EXISTS enroll_token_addresses (token_id TEXT NOT NULL, url TEXT NOT NULL, PRIMARY KEY (token_id, url))`);
  try {
    // Tokens made before max_uses: a single-use one allows 1, any other no limit (0).
    sql.exec("ALTER TABLE enroll_tokens ADD COLUMN max_uses INTEGER NOT NULL DEFAULT 0");
    sql.exec("UPDATE enroll_tokens SET max_uses = 1 WHERE single_use = 1");
  } catch {
    // The column is there already.
  }
}

export class EnrollmentTokens {
  #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  async create(t: EnrollmentTokenRequest): Promise<EnrollmentTokenView & { token: string }> {
    const token = `cce_${randomBase62(40)}`;
    const id = `enr_${randomBase62(12)}`;
    const now = Date.now();
    const expires = t.ttlSecs > 0 ? now + t.ttlSecs * 1000 : 0;
    this.#sql.exec(
      "INSERT INTO enroll_tokens (id, hash, name, created, expires, single_use, max_uses, max_slots, require_approval) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      id, await sha256Hex(token), t.name, now, expires, t.maxUses === 1 ? 1 : 0, t.maxUses, t.maxSlots, t.requireApproval ? 1 : 0);
    return { ...view(this.#sql.exec<TokenRow>("SELECT * FROM enroll_tokens WHERE id = ?", id).one()), token };
  }

  list(): EnrollmentTokenView[] {
    return this.#sql.exec<TokenRow>("SELECT * FROM enroll_tokens ORDER BY created").toArray().map(view);
  }

  revoke(id: string): boolean {
    this.#sql.exec("DELETE FROM enroll_token_addresses WHERE token_id = ?", id);
    return this.#sql.exec("DELETE FROM enroll_tokens WHERE id = ?", id).rowsWritten > 0;
  }

  /**
   * The token's grant when it is valid and unexpired, else null. Rows are found by the hash of the
   * presented token (a unique index), so the lookup itself is the comparison of equal-length digests.
   */
  async check(token: string): Promise<TokenGrant | null> {
    const row = this.#sql.exec<TokenRow>("SELECT * FROM enroll_tokens WHERE hash = ?", await sha256Hex(token)).toArray()[0];
    if (!row) return null;
    if (row.expires > 0 && row.expires < Date.now()) return null;
    return { id: row.id, maxSlots: row.max_slots, requireApproval: row.require_approval === 1, maxUses: row.max_uses };
  }

  /** Whether the node at `url` enrolled with this token before (and was not revoked since). */
  usedAt(tokenId: string, url: string): boolean {
    return this.#sql.exec("SELECT 1 FROM enroll_token_addresses WHERE token_id = ? AND url = ?", tokenId, url).toArray().length > 0;
  }

  /**
   * Counts a use by the node at `url`. Claimed before anything is awaited, so two nodes presenting
   * a token with one use left cannot both get in; false when its uses are used up.
   */
  claim(g: TokenGrant, url: string): boolean {
    const claimed = this.#sql.exec("UPDATE enroll_tokens SET uses = uses + 1, last_used = ? WHERE id = ? AND (max_uses = 0 OR uses < max_uses)",
      Date.now(), g.id).rowsWritten > 0;
    if (claimed) this.#sql.exec("INSERT OR IGNORE INTO enroll_token_addresses (token_id, url) VALUES (?, ?)", g.id, url);
    return claimed;
  }

  /** The enrollment it was claimed for failed (the node could not be reached): the use is given back. */
  unclaim(id: string, url: string): void {
    this.#sql.exec("UPDATE enroll_tokens SET uses = MAX(0, uses - 1) WHERE id = ?", id);
    this.forgetAddress(id, url);
  }

  /** The node at `url` was revoked: coming back with this token takes a new use (and a revoked row refuses it). */
  forgetAddress(tokenId: string, url: string): void {
    this.#sql.exec("DELETE FROM enroll_token_addresses WHERE token_id = ? AND url = ?", tokenId, url);
  }
}
