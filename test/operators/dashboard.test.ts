// The operator dashboard in a real headless Chromium (Debian's, driven by playwright-core): log in,
// watch live numbers move while traffic runs, manage a project's webhook endpoints, and keep a
// screenshot in test-artifacts/. Also: what the page's endpoints refuse without a session.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { chromium } from "playwright-core";
import type { BrowserContext, Page } from "playwright-core";
import { Client, ROOT, admin, cleanup, request, sleep, startEdge, startFleet, tempDir } from "../edge/harness.ts";
import type { Edge, Fleet } from "../edge/harness.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARTIFACTS = join(ROOT, "test-artifacts");

let edge: Edge;
let fleet: Fleet;
/** A second node in another pool: shown, never used (the default pool always has a ready node here). */
let fleetB: Fleet;
let context: BrowserContext;
let page: Page;
let profile: string;
let projectId = "";
let client: Client;
let keyId = "";
let planKeyId = "";

before(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/provision.sh (installs Debian's chromium) or set CHROMIUM_PATH`);
  [fleet, fleetB] = await Promise.all([startFleet({ env: { FLEET_SLOTS: "2" } }), startFleet({ env: { FLEET_SLOTS: "1" } })]);
  edge = await startEdge({ vars: { RATE_LIMIT_PER_MIN: "25" } });
  const reg = await admin(edge).registerNode(fleet);
  assert.equal(reg.status, 201, reg.text);
  const regB = await admin(edge).call("POST", "/admin/nodes", { url: fleetB.url, token: fleetB.token, name: "node-b", pool: "rack-b" });
  assert.equal(regB.status, 201, regB.text);
  const p = await admin(edge).call("POST", "/admin/projects", { name: "dash-project" });
  projectId = p.json.id;
  const k = await admin(edge).newKey(projectId);
  keyId = k.key_id;
  const plan = await admin(edge).call("PUT", "/admin/plans/dash-wide", { rate_per_minute: 500, max_in_flight: 40 });
  assert.ok(plan.status < 300, plan.text);
  const onPlan = await admin(edge).call("POST", `/admin/projects/${projectId}/keys`, { name: "wide", plan: "dash-wide" });
  assert.equal(onPlan.status, 201, onPlan.text);
  planKeyId = onPlan.json.key_id;
  client = new Client(edge.base, k.key);
  profile = tempDir("chromium-profile");
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    ignoreHTTPSErrors: true,
    viewport: { width: 1400, height: 1200 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  page = context.pages()[0] ?? (await context.newPage());
});

after(async () => {
  await context?.close().catch(() => {});
  await edge?.stop();
  await Promise.all([fleet?.stop(), fleetB?.stop()]);
  if (edge) cleanup(edge.persistDir);
  for (const f of [fleet, fleetB]) if (f) cleanup(f.stateDir);
  if (profile) cleanup(profile);
});

async function text(selector: string): Promise<string> {
  return (await page.locator(selector).first().textContent()) ?? "";
}

async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(200);
  }
}

describe("operator dashboard (headless Chromium)", () => {
  it("refuses everything but the login form without a session", async () => {
    assert.equal((await request(edge.base, "GET", "/dashboard/api/snapshot")).status, 401);
    assert.equal((await request(edge.base, "GET", "/dashboard/ws", { headers: { upgrade: "websocket", connection: "Upgrade" } })).status, 401);
    assert.equal((await request(edge.base, "GET", "/dashboard/api/admin/projects", { headers: { "x-codecell-dashboard": "1" } })).status, 401);
    const cross = await request(edge.base, "POST", "/dashboard/login", {
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" }, raw: `token=${edge.operatorToken}`,
    });
    assert.equal(cross.status, 403);
    assert.equal(cross.headers["set-cookie"], undefined);
  });

  it("logs in with the operator token (a wrong one is refused) and sets a strict session cookie", async () => {
    await page.goto(`${edge.base}/dashboard`);
    await page.fill("#token", "not-the-token");
    await page.click("#login");
    await page.waitForSelector("#login-error");
    assert.match(await text("#login-error"), /not the operator token/);
    await page.fill("#token", edge.operatorToken);
    await page.click("#login");
    await page.waitForSelector("#key-rows");
    assert.ok(!page.url().includes(edge.operatorToken), "the token never appears in a URL");
    const cookies = await context.cookies(`${edge.base}/dashboard`);
    const session = cookies.find((c) => c.name === "cc_dash");
    assert.ok(session);
    assert.equal(session.httpOnly, true);
    assert.equal(session.secure, true);
    assert.equal(session.sameSite, "Strict");
    assert.ok(!session.value.includes(edge.operatorToken));
    await until("live over WebSocket", async () => (await text("#conn")).includes("WebSocket"));
  });

  it("shows nodes, keys, queue, verdicts and latency, and the numbers move with traffic", async () => {
    await until("the node row", async () => /healthy/.test(await text("#node-rows tr .state")));
    for (const pool of ["default", "rack-b"]) {
      await until(`the pool row of ${pool}`, async () => /^1 \/ 1$/.test(await text(`#pool-rows tr[data-pool="${pool}"] td:nth-child(2)`)));
    }
    assert.match(await text("#node-rows tr .slots"), /^0 \/ 2$/);
    assert.match(await text("#node-rows .langs"), /python/);
    const row = `#key-rows tr[data-key-id="${keyId}"]`;
    await until("the key row", async () => (await page.locator(row).count()) === 1);
    assert.match(await text(`${row} .rpm`), /^0 \/ 25$/);
    assert.match(await text(`${row} .inflight`), /^0 \/ 10$/);
    // A key on another plan is shown against its own plan's limits.
    const wide = `#key-rows tr[data-key-id="${planKeyId}"]`;
    await until("the plan key's row", async () => (await page.locator(wide).count()) === 1);
    assert.match(await text(`${wide} .rpm`), /^0 \/ 500$/);
    assert.match(await text(`${wide} .inflight`), /^0 \/ 40$/);
    assert.match(await text(`${wide} .plan`), /dash-wide/);

    // Traffic: finished runs of several verdicts, two long runs in flight, then past the rate limit.
    const runs = [
      client.submit({ language: "python", code: "print('ok')" }, { wait: true }),
      client.submit({ language: "python", code: "raise SystemExit(3)" }, { wait: true }),
      client.submit({ language: "python", code: "print(1)" }, { wait: true }),
    ];
    for (const r of await Promise.all(runs)) assert.equal(r.status, 200, r.text);
    await until("verdict bars", async () => (await page.locator('#verdict-chart rect[data-verdict="AC"]').count()) === 1 &&
      (await page.locator('#verdict-chart rect[data-verdict="RE"]').count()) === 1);
    await until("latency points", async () => (await page.locator("#latency-chart circle.pt").count()) >= 3);
    await until("requests per minute moved", async () => /^3 \/ 25$/.test(await text(`${row} .rpm`)));

    const long = "import time\ntime.sleep(3)";
    await client.submit({ language: "python", code: long });
    await client.submit({ language: "python", code: long });
    await client.submit({ language: "python", code: long });
    await until("in flight 3 / 10", async () => /^3 \/ 10$/.test(await text(`${row} .inflight`)));
    await until("both slots busy", async () => /^2 \/ 2$/.test(await text("#node-rows tr .slots")));
    await until("queue depth 1", async () => (await text("#c-queue")) === "1");
    let limited = 0;
    for (let i = 0; i < 22; i++) if ((await client.call("GET", "/api/health")).status === 429) limited++;
    assert.ok(limited > 0);
    await until("429s shown", async () => Number(await text(`${row} .r429`)) === limited);
    await until("rate at the limit", async () => /^25 \/ 25$/.test(await text(`${row} .rpm`)));
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "dashboard.png"), fullPage: true });
    await until("runs drained", async () => /^0 \/ 10$/.test(await text(`${row} .inflight`)), 30_000);
    assert.ok(existsSync(join(ARTIFACTS, "dashboard.png")));
  });

  it("adds a webhook endpoint (secret shown once), disables and removes it", async () => {
    await until("project in the selector", async () => (await page.locator(`#wh-project option[value="${projectId}"]`).count()) === 1);
    await page.selectOption("#wh-project", projectId);
    await page.fill("#wh-url", "https://hooks.example.com/codecell");
    await page.click("#wh-add");
    await page.waitForSelector("#wh-secret-value");
    const secret = await text("#wh-secret-value");
    assert.match(secret, /^whsec_/);
    const rowSel = "#wh-rows tr[data-endpoint-id]";
    await until("endpoint row", async () => (await page.locator(rowSel).count()) === 1);
    assert.match(await text(`${rowSel} .wh-state`), /active/);
    const listed = await admin(edge).call("GET", `/admin/projects/${projectId}/webhooks`);
    assert.equal(listed.json.length, 1);
    assert.ok(!listed.text.includes(secret), "the secret is not shown again");

    await page.click(`${rowSel} .wh-toggle`);
    await until("disabled", async () => /disabled/.test(await text(`${rowSel} .wh-state`)));
    assert.equal((await admin(edge).call("GET", `/admin/projects/${projectId}/webhooks`)).json[0].active, false);
    await page.click(`${rowSel} .wh-toggle`);
    await until("enabled again", async () => /active/.test(await text(`${rowSel} .wh-state`)));

    page.once("dialog", (d) => void d.accept());
    await page.click(`${rowSel} .wh-remove`);
    await until("removed", async () => (await page.locator(rowSel).count()) === 0);
    assert.deepEqual((await admin(edge).call("GET", `/admin/projects/${projectId}/webhooks`)).json, []);
    assert.equal(await text("#wh-error"), "");
  });

  it("logging out ends the session", async () => {
    await page.click("text=Log out");
    await page.waitForSelector("#token");
    const r = await page.evaluate(async () => (await fetch("/dashboard/api/snapshot")).status);
    assert.equal(r, 401);
  });
});
