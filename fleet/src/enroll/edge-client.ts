// The enrollment tool's calls to the edge's /fleet/* routes: proto messages (enrollment.proto)
// as application/x-protobuf; a refusal comes back as the edge's JSON error.
import { fetch } from "undici";
import type { Dispatcher } from "undici";
import type { MessageFns } from "../../../proto/gen/codecell/fleet/v1/enrollment.ts";

export const PROTOBUF = "application/x-protobuf";

export type EdgeReply<Res> = { status: number; message: Res; error?: undefined } | { status: number; message?: undefined; error: string };

export function edgeClient(edge: string, dispatcher: Dispatcher | undefined) {
  return async function call<Req, Res>(
    path: string,
    bearer: string,
    req: { type: MessageFns<Req>; value: Req },
    resType: MessageFns<Res>,
  ): Promise<EdgeReply<Res>> {
    const res = await fetch(`${edge}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": PROTOBUF, accept: PROTOBUF },
      body: req.type.encode(req.value).finish(),
      dispatcher,
      signal: AbortSignal.timeout(15_000),
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (res.ok && (res.headers.get("content-type") ?? "").startsWith(PROTOBUF)) return { status: res.status, message: resType.decode(bytes) };
    let error = `HTTP ${res.status}`;
    try {
      const body = JSON.parse(new TextDecoder().decode(bytes)) as { message?: string; error?: string };
      error = body.message ?? body.error ?? error;
    } catch {}
    return { status: res.status, error };
  };
}
