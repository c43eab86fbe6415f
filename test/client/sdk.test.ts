// The SDK (client/, @codecell/client) against the real local stack: submit, run with the 408
// fallback, result, languages, 429 retried after Retry-After, errors as typed classes, abort,
// webhook verification of a real delivery; batch, results, runtimes and events wait for the issue-14
// routes and are skipped while the edge answers them with the router's 404. Then the packed package,
// installed into an empty project, runs a submission.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import {
  AuthenticationError, Codecell, InvalidRequestError, NotFoundError, RateLimitError, WebhookVerificationError, verifyWebhook,
} from "../../client/src/index.ts";
import type { ResultRecord, StreamEvent } from "../../client/src/index.ts";
import { ROOT, cleanup, sleep, tempDir } from "../edge/harness.ts";
import { assertDocumented, assertSchema } from "../edge/openapi-check.ts";
import { packAndInstall } from "./pack.ts";
import { SYNC_HOLD_MS, recordingFetch, startStack } from "./stack.ts";
import type { Stack } from "./stack.ts";

let stack: Stack;

before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

type Log = { method: string; path: string; status: number }[];

async function sdk(opts: { projectId?: string; retry?: ConstructorParameters<typeof Codecell>[0]["retry"] } = {}): Promise<{ cc: Codecell; log: Log; key: string }> {
  const log: Log = [];
  const { key } = await stack.ops.newKey(opts.projectId);
  return { cc: new Codecell({ baseUrl: stack.edge.base, apiKey: key, fetch: recordingFetch(log), retry: opts.retry }), log, key };
}

describe("@codecell/client against the real stack", () => {
  it("submit → 202 Accepted (documented), result polls to the record", async () => {
    const { cc } = await sdk();
    const accepted = await cc.submit({ language: "python", code: "print(input()[::-1])", stdin: "olleh" });
    assert.ok("queue_depth" in accepted, JSON.stringify(accepted));
    assertDocumented("POST", "/api/submit", { status: 202, headers: { "content-type": "application/json" }, json: accepted });
    const record = await cc.wait(accepted.id);
    assert.equal(record.verdict, "AC");
    assert.equal(record.stdout, "hello\n");
    assert.deepEqual(await cc.result(accepted.id), record);
  });

  it("run: the server's hold expires (408), run() falls back to polling and returns the finished record", async () => {
    const { cc, log } = await sdk();
    const record = await cc.run({ language: "python", code: `import time\ntime.sleep(${(SYNC_HOLD_MS + 1500) / 1000})\nprint('late')` });
    assert.equal(record.job_status, "completed");
    assert.equal(record.stdout, "late\n");
    assert.equal(log[0]?.status, 408, JSON.stringify(log));
    assert.match(log[0]!.path, /^\/api\/submit\?wait=true$/);
    assert.ok(log.slice(1).every((l) => l.path === `/api/result/${record.id}` && l.status === 200), JSON.stringify(log));
  });

  it("run: a quick program comes back from the synchronous hold itself (one request)", async () => {
    const { cc, log } = await sdk();
    const record: ResultRecord = await cc.run({ language: "python", code: "print(6 * 7)" });
    assert.equal(record.stdout, "42\n");
    // On a loaded machine the hold can expire first; then the fallback polled.
    assert.ok(log[0]!.status === 200 || log[0]!.status === 408, JSON.stringify(log));
    if (log[0]!.status === 200) assert.equal(log.length, 1);
  });

  it("429 with Retry-After is retried after the wait; with a cap below Retry-After it throws RateLimitError", async () => {
    const { cc, log } = await sdk({ retry: { retries: 10 } });
    // In-flight cap 1: while the first runs, the second is refused with Retry-After: 1.
    const first = await cc.submit({ language: "python", code: "import time\ntime.sleep(2)\nprint(1)" });
    const t0 = Date.now();
    const second = await cc.submit({ language: "python", code: "print(2)" });
    const waited = Date.now() - t0;
    const refusals = log.filter((l) => l.status === 429);
    assert.ok(refusals.length >= 1, JSON.stringify(log));
    assert.equal(log.at(-1)!.status, 202);
    assert.ok(waited >= 1000 * refusals.length, `retried after ${waited} ms for ${refusals.length} refusals`);
    assert.notEqual(second.id, first.id);
    await cc.wait(second.id);

    const { cc: impatient } = await sdk({ retry: { maxDelayMs: 500 } });
    const busy = await impatient.submit({ language: "python", code: "import time\ntime.sleep(2)" });
    await assert.rejects(impatient.submit({ language: "python", code: "print(3)" }), (e: unknown) => {
      assert.ok(e instanceof RateLimitError, String(e));
      assert.equal(e.status, 429);
      assert.equal(e.error, "quota exceeded");
      assert.equal(e.retryAfter, 1);
      return true;
    });
    await impatient.wait(busy.id);
  });

  it("errors are typed and carry the server's error text", async () => {
    const { cc } = await sdk();
    await assert.rejects(cc.submit({ language: "python", code: "" }), (e: unknown) => e instanceof InvalidRequestError && e.status === 400 && e.error === "code must not be empty");
    await assert.rejects(cc.submit({ language: "python", code: "x", nope: 1 } as never), (e: unknown) => e instanceof InvalidRequestError && /nope/.test(e.detail ?? ""));
    await assert.rejects(cc.result("0b9d3c4e-1111-4222-8333-444455556666"), (e: unknown) => e instanceof NotFoundError && e.error === "submission not found");
    const wrong = new Codecell({ baseUrl: stack.edge.base, apiKey: "sk_live_" + "A".repeat(32), fetch: recordingFetch() });
    await assert.rejects(wrong.languages(), (e: unknown) => e instanceof AuthenticationError && e.error === "unauthorized");
    const langs = await cc.languages();
    assert.ok(langs.includes("python"));
  });

  it("an AbortSignal cancels a call: a held submit, and the polling of run()", async () => {
    const { cc, log } = await sdk();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 300);
    await assert.rejects(cc.submit({ language: "python", code: "import time\ntime.sleep(3)" }, { wait: true, signal: controller.signal }), /stop/);
    assert.deepEqual(log, [], "the held request was cancelled before any answer");
    await assert.rejects(cc.languages({ signal: AbortSignal.abort() }), (e: unknown) => (e as Error).name === "AbortError");
    const { cc: other } = await sdk();
    const polling = new AbortController();
    const run = other.run({ language: "python", code: "import time\ntime.sleep(4)" }, { signal: polling.signal });
    setTimeout(() => polling.abort(new Error("gave up")), SYNC_HOLD_MS + 500);
    await assert.rejects(run, /gave up/);
  });

  it("verifyWebhook accepts a real signed delivery of a run's record and refuses a tampered one", async () => {
    const p = await stack.ops.call("POST", "/admin/projects", { name: "sdk-hooks" });
    const hook = await stack.ops.call("POST", `/admin/projects/${p.json.id}/webhooks`, { url: `${stack.receiverUrl}/hook` });
    assert.equal(hook.status, 201, hook.text);
    const { cc } = await sdk({ projectId: p.json.id });
    const record = await cc.run({ language: "python", code: "print('hooked')" });
    let delivery;
    for (let i = 0; i < 100 && !(delivery = stack.deliveries.find((d) => d.headers["webhook-id"] === record.id)); i++) await sleep(100);
    assert.ok(delivery, "no delivery arrived");
    const verified = await verifyWebhook(hook.json.secret, delivery.body, delivery.headers);
    assert.equal(verified.id, record.id);
    assert.equal(verified.stdout, "hooked\n");
    assertSchema("WebhookPayload", verified);
    await assert.rejects(verifyWebhook(hook.json.secret, delivery.body.replace("hooked", "hacked"), delivery.headers), WebhookVerificationError);
  });

  it("batch and results", async () => {
    const { cc } = await sdk();
    const items = await cc.batch([{ language: "python", code: "print(1)" }, { language: "python", code: "" }]);
    assertDocumented("POST", "/api/submit/batch", { status: 202, headers: { "content-type": "application/json" }, json: { submissions: items } });
    assert.equal(items.length, 2);
    assert.ok("id" in items[0]! && !("error" in items[0]!), JSON.stringify(items));
    assert.ok("error" in items[1]!, JSON.stringify(items));
    const id = (items[0] as { id: string }).id;
    await cc.wait(id);
    const entries = await cc.results([id, "0b9d3c4e-1111-4222-8333-444455556666"]);
    assertDocumented("GET", "/api/results", { status: 200, headers: { "content-type": "application/json" }, json: { results: entries } });
    const [found, missing] = entries;
    assert.equal((found as ResultRecord).stdout, "1\n");
    assert.equal((missing as { error: string }).error, "submission not found");
  });

  it("runtimes", async () => {
    const { cc } = await sdk();
    const runtimes = await cc.runtimes();
    assertDocumented("GET", "/api/runtimes", { status: 200, headers: { "content-type": "application/json" }, json: runtimes });
    assert.ok(runtimes.some((r) => r.language === "python" && r.default), JSON.stringify(runtimes));
  });

  it("events: queued … completed, stdout equals the record's; resumed after an id", async () => {
    const { cc } = await sdk();
    const accepted = await cc.submit({ language: "python", code: "print('a')\nprint('b')" });
    const seen: StreamEvent[] = [];
    for await (const e of cc.events(accepted.id)) {
      assertSchema("ServerSentEvent", e);
      seen.push(e);
    }
    const last = seen.at(-1)!;
    assert.equal(last.event, "completed");
    const record = last.data as ResultRecord;
    const stdout = seen.filter((e) => e.event === "stdout").map((e) => (e.data as { data: string }).data).join("");
    assert.equal(stdout, record.stdout);
    assert.deepEqual(seen.map((e) => Number(e.id)), seen.map((_, i) => i + 1));
    const resumed: StreamEvent[] = [];
    for await (const e of cc.events(accepted.id, { lastEventId: seen[0]!.id })) resumed.push(e);
    assert.deepEqual(resumed, seen.slice(1));
  });
});

describe("the npm package", () => {
  it("npm pack of client/ installs into an empty project, type-checks there and runs a submission", async () => {
    const tmp = tempDir("sdk-pack");
    try {
      const { dir, files } = packAndInstall(tmp);
      assert.ok(files.includes("dist/index.js") && files.includes("dist/index.d.ts") && files.includes("package.json"), files.join(" "));
      assert.ok(!files.some((f) => f.startsWith("src/")), files.join(" "));
      const { key } = await stack.ops.newKey();
      writeFileSync(join(dir, "main.js"), [
        'import { Codecell } from "@codecell/client";',
        "const cc = new Codecell({ baseUrl: process.env.CODECELL_URL, apiKey: process.env.CODECELL_API_KEY });",
        'const r = await cc.run({ language: "python", code: "print(sum(range(10)))" });',
        "console.log(JSON.stringify({ verdict: r.verdict, stdout: r.stdout }));",
      ].join("\n"));
      const out = execFileSync(join(ROOT, "node_modules", ".bin", "node"), ["main.js"], {
        cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"],
        // The local stack's certificate is self-signed.
        env: { ...process.env, CODECELL_URL: stack.edge.base, CODECELL_API_KEY: key, NODE_TLS_REJECT_UNAUTHORIZED: "0", NODE_NO_WARNINGS: "1" },
      });
      assert.deepEqual(JSON.parse(out), { verdict: "AC", stdout: "45\n" });
      // The shipped types are real: a wrong field type is an error, the record is typed.
      writeFileSync(join(dir, "check.ts"), [
        'import { Codecell, RateLimitError, type ResultRecord } from "@codecell/client";',
        'const cc = new Codecell({ baseUrl: "https://x", apiKey: "k" });',
        'const r: Promise<ResultRecord> = cc.run({ language: "python", code: "1" });',
        "// @ts-expect-error language must be a string",
        'cc.submit({ language: 1, code: "1" });',
        "export const n: number | null = new RateLimitError(429, { error: 'x' }, 1).retryAfter;",
        "export { r };",
      ].join("\n"));
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
        compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2023", "dom"], types: [], strict: true, noEmit: true },
        files: ["check.ts"],
      }));
      execFileSync(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", dir], { stdio: ["ignore", "pipe", "pipe"] });
    } finally {
      cleanup(tmp);
    }
  });
});
