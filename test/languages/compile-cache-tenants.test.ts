// The compile cache is scoped per tenant (docs/languages.md, "Compile cache"): a hit would tell a
// tenant, by how fast its source compiled, that another tenant compiled the same source. So a
// second tenant's identical source compiles afresh, and each tenant still hits its own compiles.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { requireKernel } from "../helpers.ts";
import { useEngine } from "../kernel-fixtures.ts";

const { engine } = useEngine("codecell-cache-tenants-");

describe("compile cache per tenant", { skip: !requireKernel() }, () => {
  it("another tenant's identical source is a miss; each tenant's own second compile is a hit", async () => {
    const code = `#include <stdio.h>\n/* ${randomUUID()} */\nint main(void) { puts("scoped"); }`;
    const run = (tenantId: string) => engine.execute({ language: "c", code, stdin: "", tenantId });
    const first = await run("account-a");
    assert.equal(first.result.verdict, "AC", first.result.stderr);
    assert.equal(first.compileCacheHit, false);
    const again = await run("account-a");
    assert.equal(again.compileCacheHit, true, "the tenant's own compile is reused");
    const other = await run("account-b");
    assert.equal(other.result.stdout, "scoped\n");
    assert.equal(other.compileCacheHit, false, "another tenant's compile is not");
    const anonymous = await run("");
    assert.equal(anonymous.compileCacheHit, false, "nor is it the anonymous tenant's");
    assert.equal((await run("account-b")).compileCacheHit, true);
  });
});
