// A submission's output costs its shard a fixed budget, against the real Worker (workerd) and a
// real fleet node: what the shard stores for a run's output (read from workerd's own SQLite files),
// the replay of a large finished run, the output budget's marks, the account's storage quota.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openEvents } from "../../scripts/stack/sse-client.ts";
import { keyOnPlan, useStack, type Client } from "./harness.ts";
import { storedBytes } from "./stored-bytes.ts";

const KiB = 1024;
const MiB = 1024 * KiB;

/** A C program that writes N bytes of 0x01 to stdout (N: its stdin) and M to stderr (argv[1], default 0). */
const PRINTER = String.raw`#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char block[65536];
static void out(FILE *f, long n) { while (n > 0) { long k = n < 65536 ? n : 65536; fwrite(block, 1, k, f); n -= k; } }
int main(int argc, char **argv) {
  long n = 0; if (scanf("%ld", &n) != 1) return 1;
  memset(block, 1, sizeof block);
  out(stdout, n);
  out(stderr, argc > 1 ? atol(argv[1]) : 0);
  return 0;
}`;

const printing = (tests: number, bytes: number, stderrBytes = 0) => ({
  language: "c", code: PRINTER, ...(stderrBytes ? { args: [String(stderrBytes)] } : {}),
  tests: Array.from({ length: tests }, (_, i) => ({ name: `t${i}`, stdin: String(bytes) })),
});

/** A C program that writes N bytes (its stdin) cycling through every byte value and some UTF-8 ("é€😀"). */
const ANY_BYTES = String.raw`#include <stdio.h>
int main(void) {
  long n = 0; if (scanf("%ld", &n) != 1) return 1;
  unsigned char pattern[256 + 9]; for (int i = 0; i < 256; i++) pattern[i] = (unsigned char)i;
  const unsigned char utf8[9] = {0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80};
  for (int i = 0; i < 9; i++) pattern[256 + i] = utf8[i];
  for (long i = 0; i < n; i++) putchar(pattern[i % sizeof pattern]);
  return 0;
}`;

const shardStore = (persistDir: string) => storedBytes(persistDir, "SubmissionDO");

describe("output stored once, within the submission's budget", { timeout: 240_000 }, () => {
  // One shard, so that the quota test knows where its submissions go.
  const stack = useStack({ edge: { vars: { SUBMISSION_SHARDS: "1" } } });
  let key: Client | undefined;
  const client = async () => (key ??= await keyOnPlan(stack, "bytes"));

  it("4 tests × 256 KiB of 0x01: the shard stores at most 1.5× the output the record keeps, plus a small constant", async () => {
    const c = await client();
    const before = shardStore(stack.edge.persistDir).bytes;
    const sub = await c.submit(printing(4, 256 * KiB));
    assert.equal(sub.status, 202, sub.text);
    const rec = (await c.terminal(sub.json.id, 60_000)).json;
    assert.equal(rec.verdict, "AC", JSON.stringify(rec).slice(0, 300));
    assert.equal(rec.tests.length, 4);
    for (const t of rec.tests) assert.equal(t.stdout, "\u0001".repeat(256 * KiB));
    assert.equal(rec.stdout, rec.tests[3].stdout, "the top level's output is the deciding (last) test's");
    assert.deepEqual(rec.output_budget, { budget_bytes: 2 * MiB, stdout: { kept_bytes: MiB, dropped_bytes: 0 }, stderr: { kept_bytes: 0, dropped_bytes: 0 } });
    // Replay the finished run (its output read back from the record) before measuring, as a client would.
    const replay = await openEvents(stack.edge.base, `/api/result/${sub.json.id}/events`, { "x-api-key": c.key! });
    assert.equal(replay.status, 200);
    const events = await replay.rest();
    assert.equal(events.at(-1)?.event, "completed", "never an empty 200: the replay ends with the record");
    for (let i = 0; i < 4; i++) {
      const chunks = events.filter((e) => e.event === "stdout" && e.data.test === i).map((e) => e.data.data).join("");
      assert.equal(chunks, rec.tests[i].stdout, `test ${i}'s chunks are its output`);
      assert.equal(events.find((e) => e.event === "test" && e.data.index === i)?.data.stdout, rec.tests[i].stdout);
    }
    const stored = shardStore(stack.edge.persistDir).bytes - before;
    assert.ok(stored <= 1.5 * MiB + 64 * KiB, `stored ${stored} bytes for 1 MiB of output (at most ${1.5 * MiB + 64 * KiB})`);
    assert.ok(stored >= MiB, `the output itself is stored (${stored})`);
  });

  it("a large output of any bytes reads the same made from its stored bytes as it is read (GET) and whole (the completed event), utf8 and base64", async () => {
    const c = await client();
    for (const encoding of ["utf8", "base64"] as const) {
      const b64 = (text: string) => Buffer.from(text).toString("base64");
      const [code, stdin] = [ANY_BYTES, String(300 * KiB + 7)];
      // In base64 the request's code and stdin are base64 too.
      const sub = await c.submit(encoding === "base64" ? { language: "c", code: b64(code), stdin: b64(stdin), encoding } : { language: "c", code, stdin });
      assert.equal(sub.status, 202, sub.text);
      const rec = (await c.terminal(sub.json.id, 60_000)).json;
      assert.equal(rec.verdict, "AC", JSON.stringify(rec).slice(0, 300));
      const replay = await openEvents(stack.edge.base, `/api/result/${sub.json.id}/events`, { "x-api-key": c.key! });
      const events = await replay.rest();
      assert.deepEqual(events.at(-1)?.data, rec, `${encoding}: the streamed GET and the whole record agree`);
      const bytes = encoding === "base64" ? Buffer.from(rec.stdout, "base64") : Buffer.from(rec.stdout, "utf8");
      if (encoding === "base64") assert.equal(bytes.length, 300 * KiB + 7, "every byte, as written");
      else assert.match(rec.stdout, /é€😀/u);
      const chunks = events.filter((e) => e.event === "stdout").map((e) => e.data.data);
      if (encoding === "utf8") assert.equal(chunks.join(""), rec.stdout, "the chunks join to the record's text");
      else assert.deepEqual(Buffer.concat(chunks.map((b64) => Buffer.from(b64, "base64"))), bytes);
    }
  });

  it("past the budget output is counted and dropped: the record says so per stream, and the kept output is all the shard stores", async () => {
    const small = await keyOnPlan(stack, "budget-small", { output_budget_kb: 512 });
    const before = shardStore(stack.edge.persistDir).bytes;
    const sub = await small.submit(printing(4, 256 * KiB, 64 * KiB));
    assert.equal(sub.status, 202, sub.text);
    const rec = (await small.terminal(sub.json.id, 60_000)).json;
    const kept = rec.tests.reduce((n: number, t: { stdout: string; stderr: string }) => n + t.stdout.length + t.stderr.length, 0);
    assert.equal(kept, 512 * KiB, "every test and both streams together keep the budget");
    const use = rec.output_budget;
    assert.equal(use.budget_bytes, 512 * KiB);
    assert.equal(use.stdout.kept_bytes + use.stderr.kept_bytes, 512 * KiB);
    assert.equal(use.stdout.kept_bytes + use.stdout.dropped_bytes, 4 * 256 * KiB, "stdout: kept and dropped are what it printed");
    assert.equal(use.stderr.kept_bytes + use.stderr.dropped_bytes, 4 * 64 * KiB);
    assert.equal(rec.tests[3].stdout, "", "the last test printed after the budget was spent");
    assert.equal(rec.tests[3].output_integrity, "truncated_by_judge_limit");
    assert.equal(rec.tests[3].verdict, "AC", "judging is not the budget's business");
    const stored = shardStore(stack.edge.persistDir).bytes - before;
    assert.ok(stored <= 1.5 * 512 * KiB + 64 * KiB, `stored ${stored} bytes for 512 KiB kept`);
  });

  it("an account past its storage quota in a shard gets 429 for new work; another account does not", async () => {
    const tight = await keyOnPlan(stack, "quota-tight", { output_budget_kb: 256, shard_storage_mb: 1 });
    const codes: number[] = [];
    let refusal;
    for (let i = 0; i < 8 && !refusal; i++) {
      const r = await tight.submit(printing(1, 256 * KiB), { wait: true });
      codes.push(r.status);
      if (r.status === 429) refusal = r;
      else assert.equal(r.json.verdict, "AC", r.text.slice(0, 300));
    }
    assert.ok(refusal, `refused once the account stores about its quota (answers: ${codes.join(" ")})`);
    assert.equal(refusal.json.error, "storage quota exceeded", refusal.text);
    assert.match(String(refusal.headers["retry-after"]), /^\d+$/);
    assert.ok(codes.filter((s) => s === 200).length >= 2, `some runs fit first (${codes.join(" ")})`);
    const other = await keyOnPlan(stack, "quota-other", { output_budget_kb: 256, shard_storage_mb: 1 });
    assert.equal((await other.submit({ language: "python", code: "print(1)" }, { wait: true })).status, 200, "the quota is the account's, not the shard's");
  });

  it("a plan's output budget is checked: above the node's cap is 400", async () => {
    const r = await stack.ops.call("PUT", "/admin/plans/too-big", { output_budget_kb: 8 * 1024 + 1 });
    assert.equal(r.status, 400, r.text);
  });
});
