// What both transports decide from a call's head alone, before any byte of its body is read
// (native gRPC: in a server interceptor, before the call's first read; gRPC-Web: before the request
// stream is consumed). In this order:
//   1. an open service (grpc.health.v1) is admitted as it is: probes carry no credential;
//   2. every other path (FleetService, reflection, /metrics, anything added later) needs the
//      fleet credential, else UNAUTHENTICATED;
//   3. a body announced above the cap is refused with RESOURCE_EXHAUSTED.
// The cap itself is enforced as the bytes arrive too: by grpc-js on native gRPC (a message's
// length prefix above grpc.max_receive_message_length), by the counting read on gRPC-Web.
import { FleetServiceDefinition } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";
import { MAX_EXECUTE_REQUEST_BYTES, REQUEST_TOO_LARGE } from "../../../proto/limits.ts";
import type { CredentialCheck } from "./auth.ts";
import { Status, toStatus, type StatusObject } from "./errors.ts";
import type { MethodName, Transport } from "./call-context.ts";

/** The largest request message either transport reads (proto/limits.ts). */
export const MAX_REQUEST_MESSAGE_BYTES = MAX_EXECUTE_REQUEST_BYTES;
/** A gRPC-Web request body: one message in one frame (flag byte, 4-byte length). */
export const MAX_REQUEST_BODY_BYTES = MAX_REQUEST_MESSAGE_BYTES + 5;

/** Services anyone may call: only health, so that probes need no credential. */
const OPEN_SERVICES = ["grpc.health.v1.Health"];

export const TOO_LARGE: StatusObject = { code: Status.RESOURCE_EXHAUSTED, message: REQUEST_TOO_LARGE };

/** What a transport knows of a call before its body. */
export interface CallHead {
  /** `/<package>.<Service>/<Method>` (gRPC-Web: the URL path). */
  path: string;
  /** Request metadata (HTTP headers), lower-case keys, text values only. */
  metadata: ReadonlyMap<string, string>;
  /** The body's announced length (gRPC-Web content-length); native gRPC announces none. */
  announcedBodyBytes?: number;
}

/** The reason to refuse a call before its body is read, or undefined to admit it. */
export type Precheck = (head: CallHead) => StatusObject | undefined;

/** Told of every call a precheck refused (the node counts and logs them). */
export type RefusalListener = (refusal: { path: string; transport: Transport; peer: string; status: StatusObject }) => void;

export function isOpenPath(path: string): boolean {
  return OPEN_SERVICES.some((service) => path.startsWith(`/${service}/`));
}

export function createPrecheck(checkCredential: CredentialCheck): Precheck {
  return ({ path, metadata, announcedBodyBytes }) => {
    if (isOpenPath(path)) return undefined;
    try {
      checkCredential(metadata);
    } catch (error) {
      const { code, message } = toStatus(error);
      return { code, message };
    }
    if (announcedBodyBytes !== undefined && announcedBodyBytes > MAX_REQUEST_BODY_BYTES) return TOO_LARGE;
    return undefined;
  };
}

const FLEET_METHODS = new Map<string, MethodName>(
  Object.entries(FleetServiceDefinition.methods).map(([key, method]) => [`/${FleetServiceDefinition.fullName}/${method.name}`, key as MethodName]),
);

/** The FleetService method a path names, if it names one. */
export function fleetMethod(path: string): MethodName | undefined {
  return FLEET_METHODS.get(path);
}
