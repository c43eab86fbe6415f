// The edge's request metrics, wired to the Worker: this isolate's recorder, the hand-over to
// MetricsDO, and GET /admin/metrics (Prometheus text; the caller has passed the operator check).
import type { Env } from "../env.ts";
import { HttpError } from "../lib/http.ts";
import { metrics } from "../stubs.ts";
import { Recorder } from "./recorder.ts";
import type { Send } from "./recorder.ts";
import { BUDGET_SAMPLES, CONTENT_TYPE, render } from "./text-format.ts";

/** One per isolate: module state lives as long as the isolate does. */
const recorder = new Recorder();

const sendTo = (env: Env): Send => async (samples) => {
  await metrics(env).add(samples);
};

/** Counts an answered request and, when due, hands the counts over after the response. */
export function recordRequest(env: Env, ctx: ExecutionContext, route: string, method: string, status: number, startedAt: number): void {
  recorder.record(route, method, status, Math.max(0, Date.now() - startedAt) / 1000);
  recorder.flushIfDue((p) => ctx.waitUntil(p), sendTo(env));
}

/** GET /admin/metrics: this isolate's counts are handed over first, then the edge-wide totals. */
export async function metricsResponse(request: Request, env: Env): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") throw new HttpError(405, { error: "method not allowed" }, { allow: "GET, HEAD" });
  await recorder.flush(sendTo(env));
  const totals = await metrics(env).totals().catch((e: unknown) => {
    console.error("metrics totals unavailable", String(e));
    throw new HttpError(503, { error: "metrics unavailable", message: "the metrics store did not answer; try again" }, { "retry-after": "1" });
  });
  const body = render([...totals, ...BUDGET_SAMPLES]);
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers: { "content-type": CONTENT_TYPE, "cache-control": "no-store" } });
}
