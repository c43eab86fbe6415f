// The operator doors (/admin's bearer token, the dashboard's sign-in) on the real Worker: wrong
// tokens are throttled per client address and overall (429 with Retry-After), counted in a metric
// and logged, while the right token passes from any address, a locked-out one included; a weak
// OPERATOR_TOKEN shuts both doors (503 saying why); rotating OPERATOR_TOKEN ends dashboard sessions. Clients are told apart by
// the address they connect from (127.0.0.x on loopback; workerd reports it as CF-Connecting-IP).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { cleanup, request, startEdge, tempDir } from "../edge/harness.ts";
import type { Edge, Res } from "../edge/harness.ts";

const STRONG = "Q7p2Lx9vR4mZ8kT1wY6nB3cH5jD0fG2s";
const FORM = "application/x-www-form-urlencoded";

function admin(edge: Edge, token: string, from = "127.0.0.1"): Promise<Res> {
  return request(edge.base, "GET", "/admin/projects", { headers: { authorization: `Bearer ${token}` }, localAddress: from });
}

function login(edge: Edge, token: string, from = "127.0.0.1"): Promise<Res> {
  return request(edge.base, "POST", "/dashboard/login", {
    headers: { origin: edge.base, "content-type": FORM }, raw: `token=${encodeURIComponent(token)}`, localAddress: from,
  });
}

/** The failures' counter at /admin/metrics, by `door/outcome`, once it holds `total` in all (DoorDO adds after answering). */
async function failureCounts(edge: Edge, total: number): Promise<Record<string, number>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = await admin(edge, edge.operatorToken);
    const m = await request(edge.base, "GET", "/admin/metrics", { headers: { authorization: `Bearer ${edge.operatorToken}` } });
    assert.equal(r.status, 200);
    const counts: Record<string, number> = {};
    for (const [, door, outcome, n] of m.text.matchAll(/^codecell_edge_operator_token_failures_total\{door="(\w+)",outcome="(\w+)"\} (\d+)$/gm)) {
      counts[`${door}/${outcome}`] = Number(n);
    }
    if (Object.values(counts).reduce((a, b) => a + b, 0) >= total || Date.now() > deadline) return counts;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("throttled failures", () => {
  let edge: Edge;
  before(async () => {
    edge = await startEdge({
      vars: { OPERATOR_FAILURES_PER_CLIENT: "3", OPERATOR_FAILURES_GLOBAL: "8", OPERATOR_FAILURE_WINDOW_SECS: "600", OPERATOR_FAILURE_DELAY_MS: "100" },
    });
  });
  after(async () => {
    await edge?.stop();
    if (edge) cleanup(edge.persistDir);
  });

  it("/admin: a client's wrong tokens beyond the limit get 429 with Retry-After; its right token still passes", async () => {
    for (let i = 0; i < 3; i++) assert.equal((await admin(edge, `wrong-${i}`, "127.0.0.2")).status, 401);
    const r = await admin(edge, "wrong-again", "127.0.0.2");
    assert.equal(r.status, 429, r.text);
    assert.equal(r.json.error, "too many failed attempts");
    assert.match(r.json.message, /from this address/);
    assert.ok(Number(r.headers["retry-after"]) > 0 && Number(r.headers["retry-after"]) <= 600, String(r.headers["retry-after"]));
    assert.equal(r.json.retry_after_secs, Number(r.headers["retry-after"]));
    const right = await admin(edge, edge.operatorToken, "127.0.0.2");
    assert.equal(right.status, 200, `the locked-out address with the right token: ${right.text}`);
    assert.equal((await admin(edge, "wrong-after", "127.0.0.2")).status, 429, "the right token does not lift the throttle on wrong ones");
    assert.equal((await admin(edge, "wrong", "127.0.0.5")).status, 401, "other clients have their own count");
  });

  it("dashboard sign-in: the login page with 429 and Retry-After after too many wrong tokens; the right token signs in", async () => {
    for (let i = 0; i < 3; i++) assert.equal((await login(edge, `nope-${i}`, "127.0.0.3")).status, 401);
    const r = await login(edge, "nope-again", "127.0.0.3");
    assert.equal(r.status, 429);
    assert.match(String(r.headers["content-type"]), /text\/html/);
    assert.match(r.text, /id="login-error"[^>]*>too many wrong operator tokens from this address; try again in \d+ s/);
    assert.ok(Number(r.headers["retry-after"]) > 0);
    assert.equal(r.headers["set-cookie"], undefined);
    const signIn = await login(edge, edge.operatorToken, "127.0.0.3");
    assert.equal(signIn.status, 303, signIn.text);
    assert.match(String(signIn.headers["set-cookie"]), /^cc_dash=/);
  });

  it("overall: with the global budget spent, every wrong token gets 429; the right token passes from a new address", async () => {
    // 3 + 1 (127.0.0.2, 127.0.0.5) and 3 (127.0.0.3) failures counted so far; one more spends the budget of 8.
    assert.equal((await admin(edge, "wrong", "127.0.0.6")).status, 401);
    const stranger = await admin(edge, "guess", "127.0.0.4");
    assert.equal(stranger.status, 429, stranger.text);
    assert.match(stranger.json.message, /from all addresses together/);
    assert.equal((await login(edge, "guess", "127.0.0.7")).status, 429);
    const fresh = await admin(edge, edge.operatorToken, "127.0.0.4");
    assert.equal(fresh.status, 200, `an address that never signed in, with the right token: ${fresh.text}`);
    const signIn = await login(edge, edge.operatorToken, "127.0.0.8");
    assert.equal(signIn.status, 303, signIn.text);
    assert.match(String(signIn.headers["set-cookie"]), /^cc_dash=/);
  });

  it("every wrong token is counted in /admin/metrics by door and outcome, and logged with its client", async () => {
    const counts = await failureCounts(edge, 13);
    assert.deepEqual(counts, { "admin/refused": 5, "admin/throttled": 3, "dashboard/refused": 3, "dashboard/throttled": 2 }, JSON.stringify(counts));
    assert.match(edge.log(), /wrong operator token door=admin client=127\.0\.0\.2 outcome=throttled \(throttled: client limit/);
    assert.match(edge.log(), /wrong operator token door=dashboard client=127\.0\.0\.7 outcome=throttled \(throttled: global limit/);
    assert.doesNotMatch(edge.log(), /wrong-again|nope-again/, "the presented tokens are never logged");
  });
});

describe("token strength and rotation", () => {
  const persistDir = tempDir("doors-edge");
  let edge: Edge | undefined;
  const restart = async (operatorToken: string) => {
    await edge?.stop();
    edge = await startEdge({ persistDir, operatorToken });
    return edge;
  };
  after(async () => {
    await edge?.stop();
    cleanup(persistDir);
  });

  it("a short or repetitive OPERATOR_TOKEN shuts /admin and the dashboard with a 503 saying why", async () => {
    for (const [token, why] of [["short-token-1234", /16 characters long; at least 32/], ["ab".repeat(20), /only 2 different characters; at least 10/]] as const) {
      const e = await restart(token);
      const r = await admin(e, token);
      assert.equal(r.status, 503, r.text);
      assert.equal(r.json.error, "admin API disabled");
      assert.match(r.json.message, why);
      const d = await request(e.base, "GET", "/dashboard");
      assert.equal(d.status, 503);
      assert.match(d.json.message, why);
      assert.equal((await login(e, token)).status, 503);
    }
  });

  it("rotating OPERATOR_TOKEN ends dashboard sessions (a restart with the same token does not)", async () => {
    let e = await restart(STRONG);
    const signIn = await login(e, STRONG);
    assert.equal(signIn.status, 303, signIn.text);
    const cookie = String(signIn.headers["set-cookie"]).split(";")[0]!;
    const snapshot = (x: Edge) => request(x.base, "GET", "/dashboard/api/snapshot", { headers: { cookie } });
    assert.equal((await snapshot(e)).status, 200);
    e = await restart(STRONG);
    assert.equal((await snapshot(e)).status, 200, "same token: the session lives on");
    e = await restart(`${STRONG.slice(1)}X`);
    assert.equal((await snapshot(e)).status, 401, "rotated token: the session is over");
    const page = await request(e.base, "GET", "/dashboard", { headers: { cookie } });
    assert.match(page.text, /id="token"/, "the login form again");
    assert.equal((await admin(e, STRONG)).status, 401, "the old token opens nothing");
  });
});
