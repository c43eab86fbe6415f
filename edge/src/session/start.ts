// A session's first message → its submission, through the one admission path every submit takes
// (submit/submit-core.ts): the same checks, rate limit and concurrency unit. Piston's init is mapped
// to a native body first (compat/piston). A refusal comes back as the session's refusal.
import { fromBase64 } from "../../../proto/base64.ts";
import type { Caller } from "../contracts/key.ts";
import type { Env } from "../env.ts";
import { HttpError } from "../lib/http.ts";
import { sessionCaps, type SessionCaps } from "../plans/plan-caps.ts";
import { planFor, type ApiContext } from "../submit/api-context.ts";
import { admit, fleetStatus } from "../submit/submit-core.ts";
import { PISTON_LANGUAGE, parsePistonExecute, pistonRuntime, pistonToNative } from "../compat/piston/to-native.ts";
import type { Refusal, RefusalKind } from "./dialect.ts";

export interface Started {
  id: string;
  caps: SessionCaps;
  /** What the client gave as `stdin` in its first message: the first input. */
  initial: Uint8Array;
  runtime?: { language: string; version: string };
}

export interface StartContext {
  env: Env;
  caller: Caller;
  session: string;
  pool: string;
}

export async function startSession(c: StartContext, body: Record<string, unknown>, piston: boolean): Promise<Started | Refusal> {
  const api: ApiContext = { caller: c.caller, rate: null };
  const status = fleetStatus(c.env);
  try {
    let runtime: Started["runtime"];
    let native = body;
    if (piston) {
      const p = parsePistonExecute(body);
      const found = pistonRuntime(p.language, p.version, (await status()).runtimes);
      if (!found) throw new HttpError(400, { message: `${p.language}-${p.version} runtime is unknown`, error: "unknown runtime" });
      // Piston discards an init's stdin: the client sends its input live.
      native = pistonToNative({ ...p, stdin: null }, found);
      runtime = { language: PISTON_LANGUAGE[found.language] ?? found.language, version: found.version };
    }
    const { stdin, ...rest } = native;
    const initial = initialStdin(stdin, rest.encoding);
    const caps = sessionCaps(await planFor(c.env, api));
    const outcome = await admit(c.pool, c.env, api, rest, { status, live: { session: c.session, caps } });
    return { id: outcome.id, caps, initial, ...(runtime ? { runtime } : {}) };
  } catch (e) {
    if (!(e instanceof HttpError)) throw e;
    return refusalOf(e);
  }
}

function initialStdin(stdin: unknown, encoding: unknown): Uint8Array {
  if (typeof stdin !== "string" || stdin === "") return new Uint8Array(0);
  if (encoding !== "base64") return new TextEncoder().encode(stdin);
  const bytes = fromBase64(stdin);
  if (!bytes) throw new HttpError(400, { error: "invalid stdin", message: "stdin is not valid base64" });
  return bytes;
}

const KIND_BY_STATUS: Record<number, RefusalKind> = { 401: "revoked", 429: "rate_limited", 503: "unavailable" };

/** The HTTP refusal a submit would have answered, as the session's: its body rides in the error message. */
export function refusalOf(e: HttpError): Refusal {
  const kind = KIND_BY_STATUS[e.status] ?? (e.status < 500 ? "invalid" : "internal");
  const { message, error, ...details } = e.body;
  const text = typeof message === "string" ? message : typeof error === "string" ? error : "the session was refused";
  return { refused: kind, message: text, details: { ...details, status: e.status, ...(typeof error === "string" ? { reason: error } : {}) } };
}
