// Operator-issued enrollment tokens: only their SHA-256 is stored; the plain value is shown once.
// A token carries what a node that presents it may be: how many run slots it gets at most,
// whether it waits for an operator's approval, and whether the token enrolls one node only.
import type { EnrollmentTokenRequest, EnrollmentTokenView } from "../contracts/fleet.ts";
import { randomBase62, sha256Hex } from "../lib/keys.ts";
import type { TokenGrant } from "./node-admission.ts";

interface TokenRow extends Record<string, SqlStorageValue> {
  id: string; hash: string; name: string; created: number; expires: number; uses: number; last_used: number;
  single_use: number; max_slots: number; require_approval: number;
}

const iso = (ms: number) => (ms ? new Date(ms).toISOString() : null);

function view(r: TokenRow): EnrollmentTokenView {
  return {
    id: r.id, name: r.name, created_at: new Date(r.created).toISOString(), expires_at: iso(r.expires),
    uses: r.uses, last_used_at: iso(r.last_used), single_use: r.single_use === 1, max_slots: r.max_slots,
    require_approval: r.require_approval === 1,
  };
}

export function createTokenTable(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS enroll_tokens (id TEXT PRIMARY KEY, hash TEXT UNIQUE NOT NULL, name TEXT NOT NULL,
    created INTEGER NOT NULL, expires INTEGER NOT NULL DEFAULT 0, uses INTEGER NOT NULL DEFAULT 0, last_used INTEGER NOT NULL DEFAULT 0,
    single_use INTEGER NOT NULL DEFAULT 0, max_slots INTEGER NOT NULL, require_approval INTEGER NOT NULL DEFAULT 0)`);
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
      "INSERT INTO enroll_tokens (id, hash, name, created, expires, single_use, max_slots, require_approval) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      id, await sha256Hex(token), t.name, now, expires, t.singleUse ? 1 : 0, t.maxSlots, t.requireApproval ? 1 : 0);
    return { ...view(this.#sql.exec<TokenRow>("SELECT * FROM enroll_tokens WHERE id = ?", id).one()), token };
  }

  list(): EnrollmentTokenView[] {
    return this.#sql.exec<TokenRow>("SELECT * FROM enroll_tokens ORDER BY created").toArray().map(view);
  }

  revoke(id: string): boolean {
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
    return { id: row.id, maxSlots: row.max_slots, requireApproval: row.require_approval === 1, singleUse: row.single_use === 1 };
  }

  /**
   * Counts a use. A single-use token is claimed by its first use before anything is awaited, so two
   * nodes presenting it at once cannot both get in; false when it was already used.
   */
  claim(g: TokenGrant): boolean {
    const cond = g.singleUse ? " AND uses = 0" : "";
    return this.#sql.exec(`UPDATE enroll_tokens SET uses = uses + 1, last_used = ? WHERE id = ?${cond}`, Date.now(), g.id).rowsWritten > 0;
  }

  /** The enrollment it was claimed for failed (the node could not be reached): the use is given back. */
  unclaim(id: string): void {
    this.#sql.exec("UPDATE enroll_tokens SET uses = MAX(0, uses - 1) WHERE id = ?", id);
  }
}
