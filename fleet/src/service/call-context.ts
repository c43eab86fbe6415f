// What a handler sees of a call, whichever transport carried it.
import type { FleetServiceDefinition } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";

export type Transport = "grpc" | "grpc-web";

export interface CallContext {
  /** Aborted when the client cancels, disconnects or its deadline passes. */
  signal: AbortSignal;
  /** Request metadata (lower-case keys); the transport has already stripped binary values. */
  metadata: ReadonlyMap<string, string>;
  transport: Transport;
  peer: string;
}

type Methods = FleetServiceDefinition["methods"];
export type MethodName = keyof Methods;
type RequestOf<M extends MethodName> = ReturnType<Methods[M]["requestType"]["decode"]>;
type ResponseOf<M extends MethodName> = ReturnType<Methods[M]["responseType"]["decode"]>;

/** nice-grpc style: unary calls return a promise, server streams are async generators. */
export type FleetServiceImplementation = {
  [M in MethodName]: Methods[M]["responseStream"] extends true
    ? (request: RequestOf<M>, context: CallContext) => AsyncIterable<ResponseOf<M>>
    : (request: RequestOf<M>, context: CallContext) => Promise<ResponseOf<M>>;
};
