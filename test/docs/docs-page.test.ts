// The /docs page in a real headless Chromium (Debian's, driven by playwright-core): served by the
// Worker, it renders docs/openapi.json with the bundled Swagger UI, shows the submit endpoint and its
// fields, and loads nothing from another origin (works offline). The dashboard links to it.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { chromium } from "playwright-core";
import type { BrowserContext, Page } from "playwright-core";
import { dashboardPage } from "../../edge/src/dashboard/page.ts";
import { ROOT, cleanup, startEdge, tempDir } from "../edge/harness.ts";
import type { Edge } from "../edge/harness.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let edge: Edge;
let context: BrowserContext;
let page: Page;
let profile: string;
const foreign: string[] = [];

before(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/provision.sh (installs Debian's chromium) or set CHROMIUM_PATH`);
  edge = await startEdge();
  profile = tempDir("chromium-docs");
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, ignoreHTTPSErrors: true, viewport: { width: 1400, height: 1200 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  // Offline: any request that leaves the edge's origin is recorded and refused.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(edge.base) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  page = context.pages()[0] ?? (await context.newPage());
});

after(async () => {
  await context?.close().catch(() => {});
  await edge?.stop();
  if (edge) cleanup(edge.persistDir);
  if (profile) cleanup(profile);
});

describe("/docs (headless Chromium)", () => {
  it("renders the API reference: the submit endpoint with its request fields, the webhooks, from this origin only", async () => {
    await page.goto(`${edge.base}/docs`);
    await page.waitForSelector("text=codecell API");
    const submit = page.locator("#operations-Submissions-submit");
    await submit.waitFor();
    assert.match((await submit.textContent()) ?? "", /\/api\/submit/);
    await submit.locator(".opblock-summary").first().click();
    await submit.locator(".body-param__example, .opblock-section-request-body").first().waitFor();
    const body = (await submit.locator(".opblock-section-request-body").first().textContent()) ?? "";
    for (const field of ["language", "code", "stdin"]) assert.match(body, new RegExp(`"${field}"`), `${field} not shown: ${body.slice(0, 400)}`);
    const all = (await page.locator("#docs").textContent()) ?? "";
    for (const path of ["/api/result/{id}", "/api/result/{id}/events", "/api/submit/batch", "/api/runtimes"]) assert.ok(all.includes(path), `${path} not shown`);
    assert.match(all, /Webhooks/i);
    assert.deepEqual(foreign, [], "the page loaded something from another origin");
    mkdirSync(join(ROOT, "test-artifacts"), { recursive: true });
    await page.screenshot({ path: join(ROOT, "test-artifacts", "docs.png"), fullPage: false });
  });

  it("the operator dashboard links to it", () => {
    assert.match(dashboardPage(), /<a id="api-docs" href="\/docs"/);
  });
});
