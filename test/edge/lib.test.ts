// The edge's pure helpers at their edges, with the documented numbers written out: key format and
// comparison, the rolling rate window, request validation (public and admin schemas).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HttpError } from "../../edge/src/lib/http.ts";
import { IsolateCache } from "../../edge/src/lib/isolate-cache.ts";
import { constantTimeEqual, randomBase62, randomId } from "../../edge/src/lib/keys.ts";
import { KEY_PATTERN, keyFingerprint } from "../../edge/src/keys/api-key.ts";
import { slidingWindow } from "../../edge/src/lib/ratelimit.ts";
import { MAX_CODE_BYTES, MAX_STDIN_BYTES } from "../../proto/limits.ts";
import { withoutTrailing } from "../../proto/trim.ts";
import {
  MAX_SUBMIT_BODY_BYTES, parseSubmit, parseWait, parseWith,
} from "../../edge/src/submit/validate.ts";
import { createKeySchema, createProjectSchema, createWebhookSchema, registerNodeSchema } from "../../edge/src/routes/admin-schemas.ts";

function refused(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof HttpError && e.status === 400 && message.test(JSON.stringify(e.body)));
}

describe("key format and comparison", () => {
  it("the pattern is anchored at both ends", () => {
    const body = "A".repeat(32);
    assert.equal(KEY_PATTERN.test(`sk_live_${body}`), true);
    assert.equal(KEY_PATTERN.test(`xsk_live_${body}`), false);
    assert.equal(KEY_PATTERN.test(`sk_live_${body}x`), false);
    assert.equal(KEY_PATTERN.test(`sk_live_${"A".repeat(31)}`), false);
  });
  it("random ids: the prefix, then exactly 16 base62 characters", () => {
    const id = randomId("prj_");
    assert.match(id, /^prj_[0-9A-Za-z]{16}$/);
    for (const length of [1, 7, 33, 100]) assert.match(randomBase62(length), new RegExp(`^[0-9A-Za-z]{${length}}$`));
  });
  it("equality needs the same bytes and the same length, either way round", () => {
    assert.equal(constantTimeEqual("abcd", "abcd"), true);
    assert.equal(constantTimeEqual("abc", "abcd"), false);
    assert.equal(constantTimeEqual("abcd", "abc"), false);
    assert.equal(constantTimeEqual("abcd", "abce"), false);
    assert.equal(constantTimeEqual("", ""), true);
  });
  it("the fingerprint is the first 8 hex characters of the hash", () => {
    assert.equal(keyFingerprint("0123456789abcdef"), "01234567");
  });
});

describe("the rolling rate window", () => {
  it("counts requests in (now - window, now]: one exactly a window old and one in the future do not count", () => {
    const d = slidingWindow([0, 1_000, 70_000], 60_000, 2, 60_000);
    assert.deepEqual(d.kept, [1_000, 60_000]);
    assert.equal(d.allowed, true);
    assert.equal(d.remaining, 0);
    // The window empties when the oldest kept request (t=1000) leaves it: 1 s after now.
    assert.equal(d.resetSecs, 1);
    assert.equal(d.retryAfterSecs, 0);
  });
  it("sorts what it keeps, and refuses with Retry-After from the request that must leave first", () => {
    const d = slidingWindow([30_000, 10_000, 20_000], 40_000, 2, 60_000);
    assert.equal(d.allowed, false);
    assert.deepEqual(d.kept, [10_000, 20_000, 30_000]);
    // Two may stay: the one at 20 000 must leave, at 80 000 → 40 s; the window is empty at 90 000 → 50 s.
    assert.equal(d.retryAfterSecs, 40);
    assert.equal(d.resetSecs, 50);
    assert.equal(d.remaining, 0);
  });
  it("rounds part seconds up and never answers less than 1 s when refusing", () => {
    const d = slidingWindow([10_000], 69_999, 1, 60_000);
    assert.equal(d.allowed, false);
    assert.equal(d.retryAfterSecs, 1);
    assert.equal(d.resetSecs, 1);
    const allowed = slidingWindow([10_500], 20_000, 5, 60_000);
    assert.equal(allowed.resetSecs, 51);
    assert.equal(allowed.remaining, 3);
  });
});

describe("request validation at its limits", () => {
  it("the documented sizes: code 65 536 bytes, stdin 262 144 bytes, body 2 MiB", () => {
    assert.deepEqual([MAX_CODE_BYTES, MAX_STDIN_BYTES, MAX_SUBMIT_BODY_BYTES], [65_536, 262_144, 2_097_152]);
    assert.equal(parseSubmit({ language: "py", code: "x".repeat(65_536) }).code.length, 65_536);
    refused(() => parseSubmit({ language: "py", code: "x".repeat(65_537) }), /code too large: 65537 bytes \(maximum 65536 bytes\)/);
    assert.equal(parseSubmit({ language: "py", code: "x", stdin: "y".repeat(262_144) }).stdin.length, 262_144);
    refused(() => parseSubmit({ language: "py", code: "x", stdin: "y".repeat(262_145) }), /stdin too large: 262145 bytes \(maximum 262144 bytes\)/);
  });
  it("names the field for missing and mistyped values", () => {
    refused(() => parseSubmit({ language: "py" }), /code is required/);
    refused(() => parseSubmit({ language: "py", code: 3 }), /code must be a string/);
    refused(() => parseSubmit({ language: "py", code: "x", stdin: 3 }), /stdin must be a string/);
    refused(() => parseSubmit({ language: "py", code: "x", webhook_url: "https://a", webhook_secret: "s" }), /unsupported field\(s\): webhook_url, webhook_secret; webhooks are configured on the project/);
    refused(() => parseSubmit({ language: "py", code: "x", a: 1, b: 2 }), /unknown field\(s\): a, b/);
  });
  it("admin schemas: names, account ids, imported keys, webhook URLs and secrets, node registrations", () => {
    assert.deepEqual(parseWith(createProjectSchema, { name: "p", account_id: "acct_1-x" }), { name: "p", account_id: "acct_1-x" });
    refused(() => parseWith(createProjectSchema, { name: "" }), /name/);
    refused(() => parseWith(createProjectSchema, { name: "n".repeat(101) }), /name/);
    assert.equal(parseWith(createProjectSchema, { name: "n".repeat(100) }).name.length, 100);
    for (const bad of ["", "a b", "x".repeat(65), "é"]) refused(() => parseWith(createProjectSchema, { name: "p", account_id: bad }), /account_id/);
    assert.equal(parseWith(createProjectSchema, { name: "p", account_id: "x".repeat(64) }).account_id?.length, 64);
    assert.equal(parseWith(createKeySchema, { name: "n".repeat(100), key: "k".repeat(16) }).key, "k".repeat(16));
    refused(() => parseWith(createKeySchema, { name: "n".repeat(101) }), /name/);
    refused(() => parseWith(createKeySchema, { key: "k".repeat(15) }), /key/);
    refused(() => parseWith(createKeySchema, { key: "k".repeat(129) }), /key/);
    assert.equal(parseWith(createKeySchema, { key: "k".repeat(128) }).key?.length, 128);
    assert.equal(parseWith(createWebhookSchema, { url: "u".repeat(2048), secret: "s".repeat(200), active: false }).active, false);
    refused(() => parseWith(createWebhookSchema, { url: "" }), /url/);
    refused(() => parseWith(createWebhookSchema, { url: "u".repeat(2049) }), /url/);
    refused(() => parseWith(createWebhookSchema, { url: "https://a", secret: "s".repeat(201) }), /secret/);
    const node = parseWith(registerNodeSchema, { url: "https://n.example:50052", token: "t".repeat(1024), name: "n".repeat(100) });
    assert.equal(node.token.length, 1024);
    refused(() => parseWith(registerNodeSchema, { url: "not a url", token: "t" }), /url/);
    refused(() => parseWith(registerNodeSchema, { url: `https://${"h".repeat(2040)}.io`, token: "t" }), /url/);
    refused(() => parseWith(registerNodeSchema, { url: "https://n", token: "" }), /token/);
    refused(() => parseWith(registerNodeSchema, { url: "https://n", token: "t".repeat(1025) }), /token/);
    refused(() => parseWith(registerNodeSchema, { url: "https://n", token: "t", name: "n".repeat(101) }), /name/);
    refused(() => parseWith(registerNodeSchema, { url: "https://n", token: "t", extra: true }), /unknown field\(s\): extra/);
  });
});

describe("the exact words of validation errors", () => {
  const body = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as HttpError).body;
    }
    throw new Error("did not throw");
  };
  it("names the path of a nested problem, joins several with '; ', and says 'invalid request'", () => {
    assert.deepEqual(body(() => parseWith(createProjectSchema, { name: "" })), { error: "invalid request", message: "name: Too small: expected string to have >=1 characters" });
    const two = body(() => parseWith(registerNodeSchema, { url: "x", token: "" })) as { message: string };
    assert.match(two.message, /^url: .+; token: .+$/);
    assert.deepEqual(body(() => parseSubmit({ code: "x", language: 3 })), { error: "invalid request", message: "language must be a string" });
    assert.deepEqual(body(() => parseWith(createKeySchema, 5)), { error: "invalid request", message: "Invalid input: expected object, received number" });
  });
  it("wait: only one 'true' or one 'false'", () => {
    assert.deepEqual(body(() => parseWait(new URL("https://x/?wait=false&wait=false"))), { error: "invalid wait parameter", message: "wait must be 'true' or 'false'" });
    assert.equal(parseWait(new URL("https://x/?wait=false")), false);
  });
  it("random keys use the whole base62 alphabet; two requests in the same millisecond both count", () => {
    assert.ok(new Set(randomBase62(2_000)).size >= 60);
    const d = slidingWindow([5_000], 5_000, 2, 60_000);
    assert.deepEqual(d.kept, [5_000, 5_000]);
    assert.equal(slidingWindow(d.kept, 5_000, 2, 60_000).allowed, false);
  });
});

describe("trimming a trailing run", () => {
  it("drops only the run at the end, of the one character; a long run before another character stays, in linear time", () => {
    assert.equal(withoutTrailing("https://edge/api///", "/"), "https://edge/api");
    assert.equal(withoutTrailing("/", "/"), "");
    assert.equal(withoutTrailing("a/b", "/"), "a/b");
    assert.equal(withoutTrailing("YWJj==", "="), "YWJj");
    const run = `/${"/".repeat(200_000)}x`;
    assert.equal(withoutTrailing(run, "/"), run);
  });
});

describe("the per-isolate cache of KV reads", () => {
  it("serves a value until its TTL, then reads again; a forgotten key is read at once", async () => {
    const cache = new IsolateCache<string | null>(1_000, 10);
    let reads = 0;
    const load = async () => `v${++reads}`;
    assert.equal(await cache.through("a", load), "v1");
    assert.equal(await cache.through("a", load), "v1");
    assert.equal(cache.get("a", Date.now() + 999), "v1");
    assert.equal(cache.get("a", Date.now() + 1_001), undefined);
    cache.forget("a");
    assert.equal(await cache.through("a", load), "v2");
    cache.set("n", null);
    assert.equal(await cache.through("n", load), null, "a cached null is a hit");
    assert.equal(await cache.through("k", async () => null, (v) => v !== null), null);
    assert.equal(cache.get("k"), undefined, "a refused value is not kept");
  });
  it("does not keep a value read across a forget (a write made while the read was under way)", async () => {
    const cache = new IsolateCache<string>(60_000, 10);
    let release = () => {};
    const reading = cache.through("a", () => new Promise<string>((resolve) => (release = () => resolve("before the write"))));
    cache.forget("a");
    release();
    assert.equal(await reading, "before the write");
    assert.equal(cache.get("a"), undefined);
    assert.equal(await cache.through("a", async () => "after"), "after");
    assert.equal(cache.get("a"), "after");
  });
  it("starts over when full instead of growing", () => {
    const cache = new IsolateCache<number>(60_000, 3);
    for (let i = 0; i < 3; i++) cache.set(`k${i}`, i);
    cache.set("k3", 3);
    assert.equal(cache.get("k0"), undefined);
    assert.equal(cache.get("k3"), 3);
  });
});
