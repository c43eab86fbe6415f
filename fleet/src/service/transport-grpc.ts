// Native gRPC (HTTP/2, grpc-js): the FleetService plus grpc.health.v1 and server reflection.
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { HealthImplementation, protoPath as healthProtoPath } from "grpc-health-check";
import { fileURLToPath } from "node:url";
import { FleetServiceDefinition } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import type { CredentialCheck } from "./auth.ts";
import { toStatus } from "./errors.ts";
import type { CallContext, FleetServiceImplementation, MethodName } from "./types.ts";

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

/** Server reflection needs the credential too (only health is open); FleetService checks its own. */
function reflectionCredential(checkCredential: CredentialCheck): grpc.ServerInterceptor {
  return (method, call) =>
    new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, forward) => {
            if (!method.path.startsWith("/grpc.reflection.")) return forward(metadata);
            try {
              checkCredential(stringMetadata(metadata));
              forward(metadata);
            } catch (error) {
              const status = wireError(error);
              call.sendStatus({ code: status.code!, details: status.details! });
            }
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
  return { execute, getResult: unary("getResult"), nodeInfo: unary("nodeInfo"), drain: unary("drain"), cancel: unary("cancel") };
}

export interface GrpcTransport {
  port: number;
  health: HealthImplementation;
  /** Lets running calls finish, then stops; forces after `graceMs`. */
  close(graceMs: number): Promise<void>;
}

export async function startGrpcTransport(options: {
  service: FleetServiceImplementation;
  checkCredential: CredentialCheck;
  host: string;
  port: number;
  tls: TlsFiles | undefined;
}): Promise<GrpcTransport> {
  const server = new grpc.Server({ interceptors: [reflectionCredential(options.checkCredential)] });
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
