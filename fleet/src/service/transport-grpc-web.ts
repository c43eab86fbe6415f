// gRPC-Web over HTTP/1.1 (application/grpc-web+proto) for the edge, whose fetch cannot speak
// native gRPC. Each message is written as its own frame as soon as it is produced; the status
// travels in the body as the 0x80 trailer frame (never in the headers). Also serves GET /metrics.
// Nothing of a body is read before the precheck (precheck.ts: the credential, then the announced
// content-length) admits it: a refused request is answered and its connection closed with the body
// unread. An admitted body is counted as it arrives and cut at the same cap.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import { FleetServiceDefinition } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { CONTENT_TYPE, FLAG_DATA, encodeTrailers, frameHeader, singleFrame } from "../../../proto/grpc-web/codec.ts";
import { ServiceError, Status, toStatus, type StatusObject } from "./errors.ts";
import { MAX_REQUEST_BODY_BYTES, TOO_LARGE, type Precheck, type RefusalListener } from "./precheck.ts";
import type { TlsFiles } from "./transport-grpc.ts";
import type { CallContext, FleetServiceImplementation, MethodName } from "./call-context.ts";

const TIMEOUT_UNITS_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 1e-3, n: 1e-6 };

interface Codec {
  encode(message: unknown): { finish(): Uint8Array };
  decode(bytes: Uint8Array): unknown;
}
interface Route {
  method: MethodName;
  requestType: Codec;
  responseType: Codec;
}

const ROUTES = new Map<string, Route>(
  Object.entries(FleetServiceDefinition.methods).map(([key, method]) => [
    `/${FleetServiceDefinition.fullName}/${method.name}`,
    { method: key as MethodName, requestType: method.requestType as Codec, responseType: method.responseType as Codec },
  ]),
);

function trailerFrame(status: StatusObject): Uint8Array {
  return encodeTrailers(status.code, status.message);
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BODY_BYTES) throw new ServiceError(TOO_LARGE.code, TOO_LARGE.message);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The single message of a unary request body. */
function unframe(body: Uint8Array): Uint8Array {
  const frame = singleFrame(body);
  if ("malformed" in frame) {
    throw new ServiceError(frame.compressed ? Status.UNIMPLEMENTED : Status.INVALID_ARGUMENT, "malformed request frame");
  }
  return frame.payload;
}

function decodeRequest(route: Route, bytes: Uint8Array): unknown {
  try {
    return route.requestType.decode(bytes);
  } catch {
    throw new ServiceError(Status.INVALID_ARGUMENT, "malformed request message");
  }
}

function requestMetadata(request: IncomingMessage): Map<string, string> {
  const metadata = new Map<string, string>();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined || key.endsWith("-bin")) continue;
    metadata.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  return metadata;
}

async function handleCall(service: FleetServiceImplementation, route: Route, request: IncomingMessage, response: ServerResponse) {
  const controller = new AbortController();
  const onClose = () => {
    if (!response.writableFinished) controller.abort();
  };
  response.on("close", onClose);
  let deadlineExceeded = false;
  const timeout = /^(\d{1,8})([HMSmun])$/.exec(String(request.headers["grpc-timeout"] ?? ""));
  const timer = timeout
    ? setTimeout(() => ((deadlineExceeded = true), controller.abort()), Number(timeout[1]) * TIMEOUT_UNITS_MS[timeout[2]!]!)
    : undefined;
  const context: CallContext = {
    signal: controller.signal,
    metadata: requestMetadata(request),
    transport: "grpc-web",
    peer: `${request.socket.remoteAddress}:${request.socket.remotePort}`,
  };
  response.writeHead(200, { "content-type": CONTENT_TYPE });
  const write = async (bytes: Uint8Array) => {
    if (response.write(bytes)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        response.off("drain", done);
        controller.signal.removeEventListener("abort", done);
        resolve();
      };
      response.once("drain", done);
      controller.signal.addEventListener("abort", done, { once: true });
    });
  };
  // The header and the payload are written apart: a result of several MiB is not copied again.
  const writeFrame = async (payload: Uint8Array) => {
    response.write(frameHeader(payload.length, FLAG_DATA));
    await write(payload);
  };
  let status: StatusObject = { code: Status.OK, message: "" };
  try {
    const message = decodeRequest(route, unframe(await readBody(request)));
    if (route.method === "execute") {
      for await (const event of service.execute(message as never, context)) {
        if (controller.signal.aborted) break;
        await writeFrame(route.responseType.encode(event).finish());
      }
    } else {
      const handler = service[route.method] as (request: unknown, context: CallContext) => Promise<unknown>;
      const reply = await handler(message, context);
      await writeFrame(route.responseType.encode(reply).finish());
    }
  } catch (error) {
    status = toStatus(error);
  } finally {
    clearTimeout(timer);
  }
  if (deadlineExceeded) status = { code: Status.DEADLINE_EXCEEDED, message: "deadline exceeded" };
  if (!response.destroyed && !response.writableEnded) response.end(trailerFrame(status));
}

export interface GrpcWebTransport {
  port: number;
  /** Lets running calls finish, then stops; forces after `graceMs`. */
  close(graceMs: number): Promise<void>;
}

/** Answers a refused call with its trailer and closes the connection without reading the body. */
function refuse(request: IncomingMessage, response: ServerResponse, status: StatusObject): void {
  response.writeHead(200, { "content-type": CONTENT_TYPE, connection: "close" });
  response.end(trailerFrame(status), () => request.socket.destroy());
}

export async function startGrpcWebTransport(options: {
  service: FleetServiceImplementation;
  precheck: Precheck;
  /** Called for a call refused before its body was read (metrics and log). */
  onRefused: RefusalListener;
  metrics: Registry;
  host: string;
  port: number;
  tls: TlsFiles | undefined;
  onError: (error: unknown) => void;
}): Promise<GrpcWebTransport> {
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? "/").split("?")[0]!;
    if (request.method === "GET" && path === "/metrics") {
      if (options.precheck({ path, metadata: requestMetadata(request) })) {
        response.writeHead(401, { "content-type": "text/plain", "www-authenticate": "Bearer" }).end("fleet credential required\n");
        return;
      }
      options.metrics.metrics().then(
        (text) => response.writeHead(200, { "content-type": options.metrics.contentType }).end(text),
        (error: unknown) => (options.onError(error), response.writeHead(500).end()),
      );
      return;
    }
    const route = ROUTES.get(path);
    if (request.method !== "POST" || !route) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    const contentType = String(request.headers["content-type"] ?? "");
    if (!/^application\/grpc-web(\+proto)?(;|$)/.test(contentType)) {
      response.writeHead(415, { "content-type": "text/plain" }).end("expected application/grpc-web+proto\n");
      return;
    }
    const refusal = options.precheck({
      path,
      metadata: requestMetadata(request),
      announcedBodyBytes: Number(request.headers["content-length"] ?? 0),
    });
    if (refusal) {
      const peer = `${request.socket.remoteAddress}:${request.socket.remotePort}`;
      options.onRefused({ path, transport: "grpc-web", peer, status: refusal });
      refuse(request, response, refusal);
      return;
    }
    handleCall(options.service, route, request, response).catch((error: unknown) => {
      options.onError(error);
      response.destroy();
    });
  };

  const server: Server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, listener)
    : createHttpServer(listener);
  server.on("clientError", (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => (server.off("error", reject), resolve()));
  });

  return {
    port: (server.address() as AddressInfo).port,
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => (clearTimeout(force), resolve()));
        server.closeIdleConnections();
      }),
  };
}
