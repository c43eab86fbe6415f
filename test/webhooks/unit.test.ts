// Webhook pure logic: SSRF rules (≥ 25 hostile URLs, good ones accepted), the development
// allow-list policy, Standard Webhooks signatures checked against the reference `standardwebhooks`
// package (single and rotated secrets), the receiver helper, and the retry schedule.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { RecentIds, WebhookVerificationError, verifyWebhook } from "../../client/src/verify-webhook.ts";
import { checkWebhookUrl, webhookPolicy } from "../../edge/src/webhooks/endpoint-url.ts";
import { classify, nextAttemptAt } from "../../edge/src/webhooks/attempt-policy.ts";
import { generateSecret, secretKey, sign, signatureHeader } from "../../edge/src/webhooks/signing.ts";
import { GOOD, HOSTILE } from "./urls.ts";

describe("webhook URL validation", () => {
  it(`refuses ${HOSTILE.length} hostile URLs`, () => {
    assert.ok(HOSTILE.length >= 25);
    for (const u of HOSTILE) {
      const r = checkWebhookUrl(u);
      assert.equal(r.ok, false, `accepted ${u}`);
    }
  });
  it("accepts public https targets, stored normalised", () => {
    for (const u of GOOD) assert.equal(checkWebhookUrl(u).ok, true, `refused ${u}: ${JSON.stringify(checkWebhookUrl(u))}`);
    const r = checkWebhookUrl("https://bücher.example.com/hook");
    assert.ok(r.ok && r.url.hostname === "xn--bcher-kva.example.com");
  });
  it("explains refusals by the parsed host", () => {
    const r = checkWebhookUrl("https://0x7f.1/");
    assert.ok(!r.ok && /loopback/.test(r.reason) && /127\.0\.0\.1/.test(r.reason), JSON.stringify(r));
    const m = checkWebhookUrl("https://[::ffff:10.0.0.1]/");
    assert.ok(!m.ok && /private/.test(m.reason));
  });
  it("honours the dev allow-list only in development, and refuses loudly when it is set elsewhere", () => {
    const dev = webhookPolicy({ ENVIRONMENT: "development", WEBHOOK_DEV_ALLOW: "127.0.0.1:9000, [::1]:9001" });
    assert.equal(dev.configError, null);
    assert.equal(checkWebhookUrl("http://127.0.0.1:9000/h", dev).ok, true);
    assert.equal(checkWebhookUrl("https://127.0.0.1:9000/h", dev).ok, true);
    assert.equal(checkWebhookUrl("http://[::1]:9001/h", dev).ok, true);
    assert.equal(checkWebhookUrl("http://127.0.0.1:9002/h", dev).ok, false);
    assert.equal(checkWebhookUrl("http://2130706433:9000/h", dev).ok, true); // the parsed host is what counts
    const prod = webhookPolicy({ ENVIRONMENT: "production", WEBHOOK_DEV_ALLOW: "127.0.0.1:9000" });
    assert.match(prod.configError ?? "", /WEBHOOK_DEV_ALLOW/);
    const r = checkWebhookUrl("https://hooks.example.com/h", prod);
    assert.ok(!r.ok && /configuration error/.test(r.reason));
    assert.equal(webhookPolicy({ WEBHOOK_DEV_ALLOW: "" }).configError, null);
    assert.equal(webhookPolicy({}).devAllow.length, 0);
  });
});

describe("webhook signatures", () => {
  const body = JSON.stringify({ id: "5b0c3b1e-0000-4000-8000-000000000000", job_status: "completed", stdout: "héllo ✓\n" });
  const id = "5b0c3b1e-0000-4000-8000-000000000000";
  it("verify with the reference standardwebhooks library", async () => {
    const secret = generateSecret();
    assert.ok(secretKey(secret));
    const ts = Math.floor(Date.now() / 1000);
    const sig = await sign(secret, id, ts, body);
    const headers = { "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": sig };
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(secret).verify(body + " ", headers));
    assert.throws(() => new Webhook(generateSecret()).verify(body, headers));
  });
  it("carry one signature per active secret during a rotation; each verifies", async () => {
    const [a, b] = [generateSecret(), generateSecret()];
    const ts = Math.floor(Date.now() / 1000);
    const header = await signatureHeader([b, a], id, ts, body);
    assert.equal(header.split(" ").length, 2);
    const headers = { "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": header };
    assert.deepEqual(new Webhook(a).verify(body, headers), JSON.parse(body));
    assert.deepEqual(new Webhook(b).verify(body, headers), JSON.parse(body));
    assert.deepEqual(await verifyWebhook(a, body, headers), JSON.parse(body));
    assert.deepEqual(await verifyWebhook([generateSecret(), b], new TextEncoder().encode(body), new Headers(headers)), JSON.parse(body));
  });
  it("the receiver helper agrees with the reference library on good and bad deliveries", async () => {
    const secret = generateSecret();
    const ts = Math.floor(Date.now() / 1000);
    const wh = new Webhook(secret);
    const good = { "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": wh.sign(id, new Date(ts * 1000), body) };
    assert.deepEqual(await verifyWebhook(secret, body, good), JSON.parse(body));
    const bad = async (h: Record<string, string>, b = body, opts = {}) =>
      assert.rejects(verifyWebhook(secret, b, h, opts), WebhookVerificationError);
    await bad({ ...good, "webhook-signature": "v1,AAAA" });
    await bad(good, body.replace("✓", "x"));
    await bad({ ...good, "webhook-id": "other" });
    await bad({ "webhook-id": id, "webhook-timestamp": String(ts) });
    // ±5 minutes of clock skew tolerated, not more.
    assert.ok(await verifyWebhook(secret, body, good, { nowSeconds: ts + 299 }));
    assert.ok(await verifyWebhook(secret, body, good, { nowSeconds: ts - 299 }));
    await bad(good, body, { nowSeconds: ts + 301 });
    await bad(good, body, { nowSeconds: ts - 301 });
    const seen = new RecentIds();
    assert.equal(seen.seen(id), false);
    assert.equal(seen.seen(id), true);
  });
  it("never put the secret in an error", async () => {
    const secret = "whsec_" + btoa("0123456789");
    await assert.rejects(sign(secret, id, 1, body), (e: Error) => !e.message.includes(secret) && !e.message.includes("MDEy"));
  });
});

describe("webhook schedule", () => {
  it("retries 5xx and network errors, never 4xx or 3xx, at most three attempts", () => {
    assert.equal(classify(200, 1), "delivered");
    assert.equal(classify(204, 3), "delivered");
    assert.equal(classify(500, 1), "retry");
    assert.equal(classify(503, 2), "retry");
    assert.equal(classify(null, 2), "retry");
    assert.equal(classify(500, 3), "failed");
    assert.equal(classify(null, 3), "failed");
    assert.equal(classify(400, 1), "failed");
    assert.equal(classify(429, 1), "failed");
    assert.equal(classify(302, 1), "failed");
  });
  it("retries 1 s after the first failure and 5 s after the second", () => {
    assert.equal(nextAttemptAt(0, 100, 2), 1_000, "attempt 2 at 1 s from the first");
    assert.equal(nextAttemptAt(0, 1_150, 3), 5_000, "attempt 3 at 5 s from the first");
    assert.equal(nextAttemptAt(0, 10_000, 2), 10_000, "never before the previous attempt ended");
  });
});
