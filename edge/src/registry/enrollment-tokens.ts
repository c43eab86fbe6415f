// Operator-issued enrollment tokens: only their SHA-256 is stored; the plain value is shown once.
import type { EnrollmentTokenView } from "../contracts/fleet.ts";
import { constantTimeEqual, randomBase62, sha256Hex } from "../lib/keys.ts";

interface TokenRow extends Record<string, SqlStorageValue> {
  id: string; hash: string; name: string; created: number; expires: number; uses: number; last_used: number;
}

function view(r: TokenRow): EnrollmentTokenView {
  return {
    id: r.id, name: r.name, created_at: new Date(r.created).toISOString(), expires_at: r.expires ? new Date(r.expires).toISOString() : null,
    uses: r.uses, last_used_at: r.last_used ? new Date(r.last_used).toISOString() : null,
  };
}

export class EnrollmentTokens {
  #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  async create(name: string, ttlSecs: number): Promise<EnrollmentTokenView & { token: string }> {
    const token = `cce_${randomBase62(40)}`;
    const id = `enr_${randomBase62(12)}`;
    const now = Date.now();
    const expires = ttlSecs > 0 ? now + ttlSecs * 1000 : 0;
    this.#sql.exec("INSERT INTO enroll_tokens (id, hash, name, created, expires) VALUES (?, ?, ?, ?, ?)", id, await sha256Hex(token), name, now, expires);
    return { ...view(this.#sql.exec<TokenRow>("SELECT * FROM enroll_tokens WHERE id = ?", id).one()), token };
  }

  list(): EnrollmentTokenView[] {
    return this.#sql.exec<TokenRow>("SELECT * FROM enroll_tokens ORDER BY created").toArray().map(view);
  }

  revoke(id: string): boolean {
    return this.#sql.exec("DELETE FROM enroll_tokens WHERE id = ?", id).rowsWritten > 0;
  }

  /** The token's id when it is valid and unexpired, else null. */
  async check(token: string): Promise<string | null> {
    const hash = await sha256Hex(token);
    const row = this.#sql.exec<TokenRow>("SELECT * FROM enroll_tokens WHERE hash = ?", hash).toArray()[0];
    if (!row || !constantTimeEqual(row.hash, hash)) return null;
    if (row.expires > 0 && row.expires < Date.now()) return null;
    return row.id;
  }

  used(id: string): void {
    this.#sql.exec("UPDATE enroll_tokens SET uses = uses + 1, last_used = ? WHERE id = ?", Date.now(), id);
  }
}
