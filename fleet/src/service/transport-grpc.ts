// Native gRPC (HTTP/2, grpc-js): the FleetService plus grpc.health.v1 and server reflection.
// Every call passes the precheck (precheck.ts) in a server interceptor when its headers arrive,
// before its first read: grpc-js reads a call's DATA only once the handler starts reading, which
// it does only after the interceptor forwards the metadata, so a refused call's message is never
// framed, buffered or deserialized, and its stream is reset once the status is out so that the
// client stops sending it. An admitted message whose length prefix is above the cap is refused by
// grpc-js (grpc.max_receive_message_length) before it is buffered; HTTP/2
// SETTINGS_MAX_CONCURRENT_STREAMS bounds the calls open on one connection.
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { HealthImplementation, protoPath as healthProtoPath } from "grpc-health-check";
import { constants as http2Constants } from "node:http2";
import { fileURLToPath } from "node:url";
import { FleetServiceDefinition } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { toStatus } from "./errors.ts";
import { MAX_REQUEST_MESSAGE_BYTES, type Precheck, type RefusalListener } from "./precheck.ts";
import type { CallContext, FleetServiceImplementation, MethodName } from "./call-context.ts";

const PROTO_ROOT = fileURLToPath(new URL("../../../proto/", import.meta.url));

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** The grpc-js service definition, built from the ts-proto generic definition. */
export function grpcServiceDefinition(): grpc.ServiceDefinition {
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [key, method] of Object.entries(FleetServiceDefinition.methods)) {
    const { requestType, responseType } = method as {
      requestType: { encode(message: unknown): { finish(): Uint8Array }; decode(bytes: Uint8Array): unknown };
      responseType: { encode(message: unknown): { finish(): Uint8Array }; decode(bytes: Uint8Array): unknown };
    };
    definition[key] = {
      path: `/${FleetServiceDefinition.fullName}/${method.name}`,
      originalName: key,
      requestStream: method.requestStream,
      responseStream: method.responseStream,
      requestSerialize: (message: unknown) => Buffer.from(requestType.encode(message).finish()),
      requestDeserialize: (bytes: Buffer) => requestType.decode(bytes),
      responseSerialize: (message: unknown) => Buffer.from(responseType.encode(message).finish()),
      responseDeserialize: (bytes: Buffer) => responseType.decode(bytes),
    };
  }
  return definition;
}

type AnyCall = grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>;

const wireError = (error: unknown): Partial<grpc.StatusObject> => {
  const status = toStatus(error);
  return { code: status.code as number as grpc.status, details: status.message };
};

function stringMetadata(metadata: grpc.Metadata): Map<string, string> {
  const map = new Map<string, string>();
  for (const [key, value] of Object.entries(metadata.getMap())) if (typeof value === "string") map.set(key, value);
  return map;
}

/**
 * The HTTP/2 stream under grpc-js's own call object (a private field of BaseServerInterceptingCall,
 * which is what the first interceptor is given), or undefined if a grpc-js version hides it.
 */
function http2Stream(call: grpc.ServerInterceptingCallInterface): { close(code: number): void } | undefined {
  const stream = (call as unknown as { stream?: { close?: unknown; rstCode?: unknown } }).stream;
  return stream && typeof stream.close === "function" && "rstCode" in stream ? (stream as { close(code: number): void }) : undefined;
}

/**
 * The precheck on every call (FleetService, reflection; health is open), from its metadata alone.
 * Not forwarding the metadata keeps the handler from ever calling startRead, so nothing of the
 * body is read; the status ends the call at once (trailers only), after which grpc-js drops what
 * DATA still arrives. Then RST_STREAM(NO_ERROR), sent once the trailers are out, asks the client
 * to stop sending the body it has not yet sent (RFC 9113 §8.1): without it a grpc-js client goes
 * on uploading the whole message to a stream that only discards it.
 */
function admission(precheck: Precheck, onRefused: RefusalListener): grpc.ServerInterceptor {
  return (method, call) =>
    new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, forward) => {
            const refusal = precheck({ path: method.path, metadata: stringMetadata(metadata) });
            if (!refusal) return forward(metadata);
            onRefused({ path: method.path, transport: "grpc", peer: call.getPeer(), status: refusal });
            call.sendStatus({ code: refusal.code as number as grpc.status, details: refusal.message });
            http2Stream(call)?.close(http2Constants.NGHTTP2_NO_ERROR);
          },
        }),
    });
}

function callContext(call: AnyCall): { context: CallContext; done: () => void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  call.once("cancelled", abort);
  const deadline = call.getDeadline();
  const deadlineMs = deadline instanceof Date ? deadline.getTime() : deadline;
  const timer = Number.isFinite(deadlineMs) ? setTimeout(abort, Math.max(0, deadlineMs - Date.now())) : undefined;
  const metadata = stringMetadata(call.metadata);
  const context: CallContext = { signal: controller.signal, metadata, transport: "grpc", peer: call.getPeer() };
  return { context, done: () => (clearTimeout(timer), call.removeListener("cancelled", abort)) };
}

/** Resolves when the call can take more data, or when it is gone. */
function writable(call: grpc.ServerWritableStream<unknown, unknown>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      call.off("drain", done);
      signal.removeEventListener("abort", done);
      resolve();
    };
    call.once("drain", done);
    signal.addEventListener("abort", done, { once: true });
  });
}

function handlers(service: FleetServiceImplementation): grpc.UntypedServiceImplementation {
  const unary = (method: Exclude<MethodName, "execute">): grpc.handleUnaryCall<unknown, unknown> => (call, callback) => {
    const { context, done } = callContext(call);
    const handler = service[method] as (request: unknown, context: CallContext) => Promise<unknown>;
    handler(call.request, context).then(
      (response) => (done(), callback(null, response)),
      (error: unknown) => (done(), callback(wireError(error))),
    );
  };
  const execute: grpc.handleServerStreamingCall<unknown, unknown> = async (call) => {
    const { context, done } = callContext(call);
    try {
      for await (const message of service.execute(call.request as never, context)) {
        if (context.signal.aborted) break;
        if (!call.write(message)) await writable(call, context.signal);
      }
      if (!context.signal.aborted) call.end();
    } catch (error) {
      if (!context.signal.aborted) call.emit("error", wireError(error));
    } finally {
      done();
    }
  };
  return { execute, getResult: unary("getResult"), nodeInfo: unary("nodeInfo"), drain: unary("drain"), cancel: unary("cancel"), sendInput: unary("sendInput") };
}

export interface GrpcTransport {
  port: number;
  health: HealthImplementation;
  /** Lets running calls finish, then stops; forces after `graceMs`. */
  close(graceMs: number): Promise<void>;
}

export async function startGrpcTransport(options: {
  service: FleetServiceImplementation;
  precheck: Precheck;
  /** Called for a call refused before its body was read (metrics and log). */
  onRefused: RefusalListener;
  host: string;
  port: number;
  tls: TlsFiles | undefined;
  /** Calls one HTTP/2 connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS). */
  maxConcurrentStreams: number;
}): Promise<GrpcTransport> {
  const server = new grpc.Server({
    // First (and only): the first interceptor is handed grpc-js's own call, whose stream it resets
    // (with credentials that bring interceptors of their own it would only skip the reset).
    interceptors: [admission(options.precheck, options.onRefused)],
    "grpc.max_receive_message_length": MAX_REQUEST_MESSAGE_BYTES,
    "grpc.max_concurrent_streams": options.maxConcurrentStreams,
    // No cap on what is sent (grpc-js's default): a result's size follows from the engine's
    // capture caps (per test, with tests), and a cap here would turn the result of a run that has
    // finished into an error.
    "grpc.max_send_message_length": -1,
  });
  server.addService(grpcServiceDefinition(), handlers(options.service));

  const health = new HealthImplementation({ "": "NOT_SERVING", [FleetServiceDefinition.fullName]: "NOT_SERVING" });
  health.addToServer(server);

  const described = protoLoader.loadSync(["codecell/fleet/v1/fleet.proto", healthProtoPath], {
    includeDirs: [PROTO_ROOT],
    keepCase: true, // reflection must describe the fields by their .proto names
  });
  new ReflectionService(described).addToServer(server);

  const credentials = options.tls
    ? grpc.ServerCredentials.createSsl(null, [{ cert_chain: options.tls.cert, private_key: options.tls.key }], false)
    : grpc.ServerCredentials.createInsecure();
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${options.port}`, credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
  );

  return {
    port,
    health,
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.forceShutdown(), graceMs);
        server.tryShutdown(() => (clearTimeout(force), resolve()));
      }),
  };
}
