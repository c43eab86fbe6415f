// The edge's metrics in real workerd (scripts/edge-dev.ts): after requests of several routes, including
// 404s, a 429 and a 503, GET /admin/metrics (operator token) serves per-route-pattern counts and a
// latency histogram in Prometheus text that a strict parser accepts.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { Client, admin, cleanup, request, startEdge } from "./harness.ts";
import type { Edge } from "./harness.ts";
import { parsePrometheusText } from "./prometheus-text.ts";
import type { Family } from "./prometheus-text.ts";

let edge: Edge;

before(async () => {
  // No fleet node: /api/health/ready answers 503. Five requests a minute: the sixth is a 429.
  edge = await startEdge({ vars: { RATE_LIMIT_PER_MIN: "5" } });
});

after(async () => {
  await edge?.stop();
  if (edge) cleanup(edge.persistDir);
});

async function scrape(): Promise<Map<string, Family>> {
  const r = await admin(edge).call("GET", "/admin/metrics");
  assert.equal(r.status, 200, r.text);
  assert.equal(r.headers["content-type"], "text/plain; version=0.0.4; charset=utf-8");
  return parsePrometheusText(r.text);
}

function requests(families: Map<string, Family>, labels: Record<string, string>): number {
  return families.get("codecell_edge_requests_total")!.samples
    .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

describe("edge metrics", () => {
  const ids = [randomUUID(), randomUUID()];

  it("counts requests by route pattern and status, 429 and 503 included, with a latency histogram", async () => {
    const before = await scrape();
    const { key } = await admin(edge).newKey();
    const client = new Client(edge.base, key);
    for (const id of ids) assert.equal((await client.result(id)).status, 404);
    assert.equal((await client.call("GET", "/api/health")).status, 200);
    assert.equal((await client.call("GET", "/api/health")).status, 200);
    assert.equal((await client.call("GET", "/api/health/ready")).status, 503);
    const limited = await client.call("GET", "/api/health");
    assert.equal(limited.status, 429);
    assert.equal((await new Client(edge.base, null).call("GET", "/api/health")).status, 401);
    assert.equal((await request(edge.base, "GET", "/nowhere")).status, 404);

    const families = await scrape();
    assert.equal(requests(families, { route: "/api/result/:id", method: "GET", status: "404" }), 2);
    assert.equal(requests(families, { route: "/api/health", method: "GET", status: "200" }), 2);
    assert.equal(requests(families, { route: "/api/health", method: "GET", status: "429" }), 1);
    assert.equal(requests(families, { route: "/api/health/ready", method: "GET", status: "503" }), 1);
    assert.equal(requests(families, { route: "/api/*", status: "401" }), 1, "refused before routing: the router's prefix");
    assert.equal(requests(families, { route: "unmatched", status: "404" }) - requests(before, { route: "unmatched", status: "404" }), 1);
    assert.equal(requests(families, { route: "/admin/projects", method: "POST", status: "201" }), 1);
    assert.equal(requests(families, { route: "/admin/projects/:id/keys", method: "POST", status: "201" }), 1);

    const routes = new Set(families.get("codecell_edge_requests_total")!.samples.map((s) => s.labels.route!));
    for (const route of routes) assert.ok(!ids.some((id) => route.includes(id)) && !route.includes("nowhere"), `a raw path as a label: ${route}`);

    const histogram = families.get("codecell_edge_request_duration_seconds")!;
    assert.equal(histogram.type, "histogram");
    const ofRoute = (route: string) => histogram.samples.filter((s) => s.labels.route === route);
    const count = ofRoute("/api/result/:id").find((s) => s.name.endsWith("_count"))!;
    assert.equal(count.value, 2);
    assert.ok(ofRoute("/api/result/:id").filter((s) => s.name.endsWith("_bucket")).length >= 10, "several buckets");
    assert.equal(ofRoute("/api/health").find((s) => s.name.endsWith("_count"))!.value, 3);
  });

  it("later scrapes include the earlier scrapes, and the counts only grow", async () => {
    const first = await scrape();
    const second = await scrape();
    const scrapes = (f: Map<string, Family>) => requests(f, { route: "/admin/metrics", method: "GET", status: "200" });
    assert.equal(scrapes(second), scrapes(first) + 1);
    assert.equal(requests(second, { route: "/api/health", status: "429" }), 1);
  });

  it("needs the operator token, and only GET", async () => {
    const anonymous = await request(edge.base, "GET", "/admin/metrics");
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.json.error, "unauthorized");
    assert.ok(!anonymous.text.includes("codecell_edge"), "nothing of the metrics without the token");
    const wrong = await request(edge.base, "GET", "/admin/metrics", { headers: { authorization: "Bearer nope" } });
    assert.equal(wrong.status, 401);
    const post = await admin(edge).call("POST", "/admin/metrics", {});
    assert.equal(post.status, 405);
    assert.equal(post.json.error, "method not allowed");
    const families = await scrape();
    assert.equal(requests(families, { route: "/admin/metrics", status: "401" }), 2);
    assert.equal(requests(families, { route: "/admin/metrics", method: "POST", status: "405" }), 1);
  });
});
