// Writes a node's admission (node-admission.ts) right after its row was written by upsertNode.
export function admit(sql: SqlStorage, id: string, a: { tokenId: string | null; maxSlots: number; pending: boolean }): void {
  sql.exec("UPDATE nodes SET enroll_token = ?, max_slots = ?, approval = ?, revoked_at = 0 WHERE id = ?",
    a.tokenId, a.maxSlots, a.pending ? "pending" : null, id);
}
