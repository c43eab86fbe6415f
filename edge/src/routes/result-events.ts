// GET /api/result/{id}/events: the submission's events as Server-Sent Events (submission/events.ts).
// The caller is authenticated and the request counted by routes/api.ts; the stream comes from the submission's shard.
import type { IRequest } from "itty-router";
import { UUID_PATTERN } from "../../../proto/limits.ts";
import type { Env } from "../env.ts";
import { HttpError } from "../lib/http.ts";
import { resumePoint } from "../lib/sse.ts";
import { openEvents } from "../submission/reads.ts";
import { MAX_LIVE_STREAMS } from "../submission/events.ts";

/** `headers`: the rate-limit headers every answer carries. */
export async function resultEvents(request: IRequest, env: Env, accountId: string, headers: Record<string, string>): Promise<Response> {
  const id = request.params.id ?? "";
  if (!UUID_PATTERN.test(id)) throw new HttpError(400, { error: "invalid submission id", message: "the submission id must be a UUID" }, headers);
  const resume = resumePoint(request.headers.get("last-event-id"), new URL(request.url).searchParams.get("last_event_id"));
  if (!resume.ok) {
    throw new HttpError(400, {
      error: `invalid ${resume.field}`, message: `${resume.field} must be the id of an event (a whole number ≥ 0), got '${resume.value}'`,
    }, headers);
  }
  const body = await openEvents(env, id, accountId, resume.after);
  if (!body) throw new HttpError(404, { error: "submission not found" }, headers);
  if (body === "busy") {
    throw new HttpError(429, {
      error: "too many event streams",
      message: `at most ${MAX_LIVE_STREAMS} clients may follow one submission live; retry after it ends or another disconnects`,
      retry_after: 5,
    }, { ...headers, "retry-after": "5" });
  }
  return new Response(body as ReadableStream<Uint8Array>, {
    status: 200,
    headers: {
      ...headers, "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no",
    },
  });
}
