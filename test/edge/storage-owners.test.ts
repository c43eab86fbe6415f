// Each stored table and KV layout of the edge has one owner, checked the way a reviewer would by
// grep: only its module names the table in a statement (the registry's and the scheduler's `nodes`
// tables live in different objects, each with its own store), and only the keys room spells the
// API keys' and projects' KV names.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { ROOT } from "./harness.ts";

const SRC = join(ROOT, "edge", "src");
const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts")).map((f) => join(SRC, f));

/** The files whose text matches `pattern`, relative to edge/src. */
function naming(pattern: RegExp): string[] {
  return files.filter((f) => pattern.test(readFileSync(f, "utf8"))).map((f) => relative(SRC, f)).sort();
}

const statementOn = (table: string) => new RegExp(`\\b(FROM|INTO|UPDATE|TABLE IF NOT EXISTS|ON)\\s+${table}\\b`);

describe("storage owners", () => {
  const owners: Record<string, string[]> = {
    nodes: ["registry/node-store.ts", "scheduling/pool-nodes.ts"],
    assigned: ["scheduling/assignments.ts"],
    hits: ["keys/rate-window.ts"],
    idem: ["keys/idempotency.ts"],
    inflight: ["keys/concurrency.ts"],
    live: ["keys/concurrency.ts"],
    usage: ["keys/usage-counts.ts"],
  };
  for (const [table, expected] of Object.entries(owners)) {
    it(`the ${table} table is named in statements by ${expected.join(" and ")} only`, () => {
      assert.deepEqual(naming(statementOn(table)), expected);
    });
  }

  it("the API keys' and projects' KV names are spelled in keys/records.ts only", () => {
    assert.deepEqual(naming(/[`"'](key|keyid|pkey|project):/), ["keys/records.ts"]);
  });
});
