// The edge's metrics pieces outside workerd: the per-isolate recorder (what it counts, when it
// hands over, that a failed hand-over is kept) and the text it renders, read by a strict parser.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { MetricSample } from "../../edge/src/contracts/metrics.ts";
import { FLUSH_AFTER_REQUESTS, FLUSH_INTERVAL_MS, Recorder } from "../../edge/src/metrics/recorder.ts";
import { render } from "../../edge/src/metrics/text-format.ts";
import { parsePrometheusText } from "./prometheus-text.ts";

/** Sums what a recorder hands over, as MetricsDO does. */
function totals(batches: MetricSample[][]): MetricSample[] {
  const sums = new Map<string, MetricSample>();
  for (const s of batches.flat()) {
    const key = s.name + JSON.stringify(s.labels);
    const held = sums.get(key);
    sums.set(key, held ? { ...held, value: held.value + s.value } : { ...s });
  }
  return [...sums.values()];
}

const value = (samples: MetricSample[], name: string, labels: Record<string, string>) =>
  samples.find((s) => s.name === name && JSON.stringify(s.labels) === JSON.stringify(labels))?.value;

describe("metrics recorder", () => {
  it("hands over at most once per interval, in waitUntil, then everything on flush", async () => {
    const r = new Recorder();
    const sent: MetricSample[][] = [];
    const waited: Promise<unknown>[] = [];
    const send = async (s: MetricSample[]) => void sent.push(s);
    const waitUntil = (p: Promise<unknown>) => void waited.push(p);
    r.record("/api/health", "GET", 200, 0.003);
    r.flushIfDue(waitUntil, send, 10_000);
    await Promise.all(waited);
    assert.equal(sent.length, 1, "the first request of an isolate is handed over");
    r.record("/api/health", "GET", 429, 0.02);
    r.record("/api/result/:id", "get", 404, 0.2);
    r.flushIfDue(waitUntil, send, 10_000 + FLUSH_INTERVAL_MS - 1);
    await Promise.all(waited);
    assert.equal(sent.length, 1, "not again within the interval");
    r.flushIfDue(waitUntil, send, 10_000 + FLUSH_INTERVAL_MS);
    await Promise.all(waited);
    assert.equal(sent.length, 2);
    r.flushIfDue(waitUntil, send, 10_000 + 5 * FLUSH_INTERVAL_MS);
    assert.equal(waited.length, 2, "nothing counted, nothing sent");
    const t = totals(sent);
    assert.equal(value(t, "codecell_edge_requests_total", { route: "/api/health", method: "GET", status: "200" }), 1);
    assert.equal(value(t, "codecell_edge_requests_total", { route: "/api/health", method: "GET", status: "429" }), 1);
    assert.equal(value(t, "codecell_edge_requests_total", { route: "/api/result/:id", method: "GET", status: "404" }), 1);
    assert.equal(value(t, "codecell_edge_request_duration_seconds_bucket", { route: "/api/health", le: "0.005" }), 1);
    assert.equal(value(t, "codecell_edge_request_duration_seconds_bucket", { route: "/api/health", le: "0.025" }), 2);
    assert.equal(value(t, "codecell_edge_request_duration_seconds_bucket", { route: "/api/health", le: "+Inf" }), 2);
    assert.equal(value(t, "codecell_edge_request_duration_seconds_count", { route: "/api/health" }), 2);
    assert.equal(value(t, "codecell_edge_request_duration_seconds_bucket", { route: "/api/result/:id", le: "0.1" }), 0);
    assert.equal(value(t, "codecell_edge_request_duration_seconds_bucket", { route: "/api/result/:id", le: "0.25" }), 1);
  });

  it("hands over early after many requests, and names unknown methods OTHER", async () => {
    const r = new Recorder();
    const sent: MetricSample[][] = [];
    const waited: Promise<unknown>[] = [];
    r.record("/x", "GET", 200, 0);
    await r.flush(async (s) => void sent.push(s), 0);
    for (let i = 0; i < FLUSH_AFTER_REQUESTS; i++) r.record("/x", i === 0 ? "BREW" : "GET", 200, 0);
    r.flushIfDue((p) => void waited.push(p), async (s) => void sent.push(s), 1);
    await Promise.all(waited);
    assert.equal(sent.length, 2);
    assert.equal(value(totals(sent), "codecell_edge_requests_total", { route: "/x", method: "OTHER", status: "200" }), 1);
  });

  it("keeps what a failed hand-over held and sends it with the next", async () => {
    const r = new Recorder();
    r.record("/api/submit", "POST", 503, 0.05);
    await r.flush(async () => {
      throw new Error("object unreachable");
    });
    r.record("/api/submit", "POST", 503, 0.05);
    const sent: MetricSample[][] = [];
    await r.flush(async (s) => void sent.push(s));
    const t = totals(sent);
    assert.equal(value(t, "codecell_edge_requests_total", { route: "/api/submit", method: "POST", status: "503" }), 2);
    assert.equal(value(t, "codecell_edge_request_duration_seconds_count", { route: "/api/submit" }), 2);
  });
});

describe("metrics text format", () => {
  it("renders families a strict parser accepts, label values escaped", async () => {
    const r = new Recorder();
    const sent: MetricSample[][] = [];
    r.record("/api/result/:id", "GET", 200, 0.004);
    r.record('/odd"\\\nroute', "GET", 200, 3);
    r.record("/api/health", "GET", 200, 0.07);
    await r.flush(async (s) => void sent.push(s));
    const families = parsePrometheusText(render(totals(sent).reverse()));
    const requests = families.get("codecell_edge_requests_total")!;
    assert.equal(requests.type, "counter");
    assert.ok(requests.samples.some((s) => s.labels.route === '/odd"\\\nroute'), "escaped and read back");
    const histogram = families.get("codecell_edge_request_duration_seconds")!;
    assert.equal(histogram.type, "histogram");
    assert.equal(histogram.samples.filter((s) => s.name.endsWith("_count")).length, 3);
  });

  it("renders HELP and TYPE even before anything was counted", () => {
    const families = parsePrometheusText(render([]));
    assert.deepEqual([...families.keys()], [
      "codecell_edge_requests_total", "codecell_edge_request_duration_seconds", "codecell_edge_submission_spills_total",
      "codecell_edge_operator_token_failures_total", "codecell_edge_submission_event_memory_budget_bytes", "codecell_edge_submission_held_output_budget_bytes",
    ]);
  });

  it("the parser refuses what Prometheus would", () => {
    const bad = [
      "x{a=\"1\"} 1",                                   // no final newline
      "x{a=1} 1\n",                                     // unquoted label value
      "x{a=\"\\t\"} 1\n",                               // bad escape
      "x 1 2 3\n",                                      // too many fields
      "x one\n",                                        // not a number
      "x 1\nx 2\n",                                     // series twice
      "# TYPE x counter\nx 1\n# TYPE y counter\ny 1\nx{a=\"b\"} 1\n", // family split
      "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n", // not cumulative
      "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n", // no +Inf
      "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 1\n", // count differs
      "x 1\n# TYPE x counter\n",                        // TYPE after samples
    ];
    for (const text of bad) assert.throws(() => parsePrometheusText(text), Error, JSON.stringify(text));
    assert.equal(parsePrometheusText("# HELP x a\\nb\n# TYPE x gauge\nx{a=\"q\\\"\"} -Inf 123\n").get("x")!.samples[0]!.labels.a, 'q"');
  });
});
