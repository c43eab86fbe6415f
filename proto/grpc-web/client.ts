// The gRPC-Web client for the fleet service over `fetch` (workerd and Node 24 alike), driven by
// ts-proto's generic service definition so paths and message codecs come from the contract.
// A Worker's fetch cannot speak native gRPC (no HTTP/2 framing, no trailers), hence gRPC-Web.
import { FleetServiceDefinition } from "../gen/codecell/fleet/v1/fleet.ts";
import type { DeepPartial, MessageFns } from "../gen/codecell/fleet/v1/fleet.ts";
import { CONTENT_TYPE, FrameParser, FrameTooLargeError, decodeGrpcMessage, encodeFrame, parseTrailers } from "./codec.ts";
import { STATUS_NAMES } from "./status.ts";
import { withoutTrailing } from "../trim.ts";

/** Where a fleet node's gRPC-Web port is, and the fleet credential it wants. */
export interface FleetTarget {
  url: string;
  token: string;
}

export interface Method<Req, Res> {
  name: string;
  requestType: MessageFns<Req>;
  responseType: MessageFns<Res>;
}

export const fleetMethods = FleetServiceDefinition.methods;

/** code >= 0: a gRPC status from the node; code -1: transport failure (no answer, broken stream). */
export class GrpcError extends Error {
  code: number;
  /** The node answered, with a message larger than we take (MAX_FRAME_BYTES): asking again gets the same. */
  readonly tooLarge: boolean;
  constructor(code: number, message: string, tooLarge = false) {
    super(message);
    this.code = code;
    this.tooLarge = tooLarge;
  }
  get transport(): boolean {
    return this.code < 0;
  }
  get statusName(): string {
    return this.code < 0 ? "TRANSPORT" : (STATUS_NAMES[this.code] ?? String(this.code));
  }
}

function methodUrl(base: string, name: string): string {
  return `${withoutTrailing(base, "/")}/${FleetServiceDefinition.fullName}/${name}`;
}

async function open<Req, Res>(target: FleetTarget, method: Method<Req, Res>, req: DeepPartial<Req>, signal?: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(methodUrl(target.url, method.name), {
      method: "POST",
      headers: {
        "content-type": CONTENT_TYPE,
        accept: CONTENT_TYPE,
        "x-grpc-web": "1",
        authorization: `Bearer ${target.token}`,
      },
      body: encodeFrame(method.requestType.encode(method.requestType.fromPartial(req)).finish()),
      signal,
    });
  } catch (e) {
    throw new GrpcError(-1, `cannot reach fleet node: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Trailers-only responses put grpc-status in the HTTP headers.
  const headerStatus = res.headers.get("grpc-status");
  if (headerStatus !== null && headerStatus !== "0") {
    await res.body?.cancel().catch(() => {});
    throw new GrpcError(Number(headerStatus), decodeGrpcMessage(res.headers.get("grpc-message")) || `grpc-status ${headerStatus}`);
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => {});
    throw new GrpcError(-1, `fleet node answered HTTP ${res.status}`);
  }
  return res;
}

/** Server streaming call: yields each decoded message; throws GrpcError on a non-OK status or a broken stream. */
export async function* serverStream<Req, Res>(
  target: FleetTarget, method: Method<Req, Res>, req: DeepPartial<Req>, signal?: AbortSignal,
): AsyncGenerator<Res> {
  const res = await open(target, method, req, signal);
  if (!res.body) throw new GrpcError(-1, "fleet node sent no body");
  const headerOk = res.headers.get("grpc-status") === "0";
  const reader = res.body.getReader();
  const parser = new FrameParser();
  let trailers: Record<string, string> | null = null;
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (e) {
        throw new GrpcError(-1, `stream from fleet node broke: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (chunk.done) break;
      let frames;
      try {
        frames = parser.push(chunk.value);
      } catch (e) {
        if (e instanceof FrameTooLargeError) throw new GrpcError(-1, `fleet node's answer is too large: ${e.message}`, true);
        throw e;
      }
      for (const frame of frames) {
        if (frame.trailers) {
          trailers = parseTrailers(frame.payload);
          continue;
        }
        yield method.responseType.decode(frame.payload);
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (trailers) {
    const status = Number(trailers["grpc-status"] ?? "2");
    if (status !== 0) throw new GrpcError(status, decodeGrpcMessage(trailers["grpc-message"]) || `grpc-status ${status}`);
    return;
  }
  if (!headerOk) throw new GrpcError(-1, "stream from fleet node ended without a status (connection lost)");
}

export async function unary<Req, Res>(target: FleetTarget, method: Method<Req, Res>, req: DeepPartial<Req>, timeoutMs: number): Promise<Res> {
  let first: Res | undefined;
  try {
    for await (const msg of serverStream(target, method, req, AbortSignal.timeout(timeoutMs))) {
      if (first === undefined) first = msg;
    }
  } catch (e) {
    if (e instanceof GrpcError) throw e;
    throw new GrpcError(-1, `fleet call ${method.name} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (first === undefined) throw new GrpcError(-1, `fleet call ${method.name} returned no message`);
  return first;
}
