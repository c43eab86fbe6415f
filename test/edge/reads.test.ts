// Reading many ids costs no object per id: repeated ids are read once and answered at each place
// they were asked, and an unknown id is answered by its shard (one of SUBMISSION_SHARDS) or by the
// Worker alone. The observable: workerd keeps one SQLite file per Durable Object under the edge's
// persist directory, so the SubmissionDO objects that exist are counted on disk.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Client, useStack } from "./harness.ts";

const SHARDS = 4;
const stack = useStack({ edge: { vars: { SUBMISSION_SHARDS: String(SHARDS) } } });

/** SubmissionDO objects on disk (one <hash>.sqlite each; workerd's own metadata.sqlite beside them). */
function submissionObjects(persistDir: string): number {
  const doRoot = join(persistDir, "v3", "do");
  const dir = readdirSync(doRoot).find((d) => d.endsWith("-SubmissionDO"));
  if (!dir) return 0;
  return readdirSync(join(doRoot, dir)).filter((f) => /^[0-9a-f]{64}\.sqlite$/.test(f)).length;
}

/** A UUID whose shard digits name a shard at or above the configured count (as most random ids do). */
const unknownId = (i: number) => (0x1000 + i).toString(16).padStart(4, "0") + randomUUID().slice(4);

describe("batch reads", () => {
  it("native: repeated ids answered at each place, distinct unknown ids (reads, an operator's cancel) touch no new object", async () => {
    const c = new Client(stack.edge.base, (await stack.ops.newKey()).key);
    const known = await c.submit({ language: "python", code: "print(1)" }, { wait: true });
    assert.equal(known.status, 200, known.text);
    const id: string = known.json.id;
    const before = submissionObjects(stack.edge.persistDir);
    assert.ok(before >= 1 && before <= SHARDS, `objects before: ${before}`);
    // Within the shard range too: an unknown id there is answered by its (fixed) shard.
    const inRange = (s: number) => s.toString(16).padStart(4, "0") + randomUUID().slice(4);
    for (let round = 0; round < 3; round++) {
      const unknown = Array.from({ length: 14 }, (_, i) => (i < SHARDS ? inRange(i) : unknownId(round * 100 + i)));
      const ids = [id, ...unknown, id.toUpperCase(), unknown[5]!, id, unknown[0]!, unknown[5]!];
      const r = await c.call("GET", `/api/results?ids=${ids.join(",")}`);
      assert.equal(r.status, 200, r.text);
      const got: { id: string; error?: string; verdict?: string }[] = r.json.results;
      assert.equal(got.length, ids.length, "one entry per id asked, repeats included");
      got.forEach((g, i) => {
        assert.equal(g.id.toLowerCase(), ids[i]!.toLowerCase(), `entry ${i} is the id asked there`);
        if (ids[i]!.toLowerCase() === id) assert.equal(g.verdict, "AC", JSON.stringify(g));
        else assert.equal(g.error, "submission not found", JSON.stringify(g));
      });
    }
    for (let i = 0; i < 10; i++) {
      const cancel = await stack.ops.call("POST", `/admin/submissions/${unknownId(500 + i)}/cancel`);
      assert.equal(cancel.status, 404, cancel.text);
    }
    const after = submissionObjects(stack.edge.persistDir);
    assert.ok(after <= SHARDS, `SubmissionDO objects: ${before} before, ${after} after 52 unknown ids; at most ${SHARDS} (the shards) may exist`);
  });

  it("judge0: one entry per token asked, repeats included; unknown tokens touch no new object", async () => {
    const k = await stack.ops.newKey();
    const h = { "x-auth-token": k.key };
    const c = new Client(stack.edge.base, null);
    const created = await c.call("POST", "/judge0/submissions?wait=true", { headers: h, body: { source_code: "print(7)", language_id: 71 } });
    assert.equal(created.status, 201, created.text);
    const token: string = created.json.token;
    const unknown = Array.from({ length: 15 }, (_, i) => unknownId(1000 + i));
    const tokens = [token, ...unknown, token, unknown[3]!, token];
    const r = await c.call("GET", `/judge0/submissions/batch?tokens=${tokens.join(",")}&fields=token,stdout`, { headers: h });
    assert.equal(r.status, 200, r.text);
    const subs: ({ token: string; stdout: string } | null)[] = r.json.submissions;
    assert.equal(subs.length, tokens.length);
    subs.forEach((s, i) => {
      if (tokens[i] === token) assert.equal(s?.stdout, "7\n", JSON.stringify(s));
      else assert.equal(s, null, `entry ${i}`);
    });
    const after = submissionObjects(stack.edge.persistDir);
    assert.ok(after <= SHARDS, `SubmissionDO objects after unknown tokens: ${after}; at most ${SHARDS}`);
  });
});
