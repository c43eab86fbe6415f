// The one error type handlers throw. Anything else a handler throws is a
// bug: the client sees INTERNAL with a generic message and the details go to the log only.
import { Status, type StatusCode } from "../../../proto/grpc-web/status.ts";

export { STATUS_NAMES, Status, type StatusCode } from "../../../proto/grpc-web/status.ts";

export class ServiceError extends Error {
  readonly code: StatusCode;
  constructor(code: StatusCode, message: string) {
    super(message);
    this.name = "ServiceError";
    this.code = code;
  }
}

export interface StatusObject {
  code: StatusCode;
  message: string;
}

/** Maps what a handler threw to the status the client sees; `unexpected` is true for bugs. */
export function toStatus(error: unknown): StatusObject & { unexpected: boolean } {
  if (error instanceof ServiceError) return { code: error.code, message: error.message, unexpected: false };
  return { code: Status.INTERNAL, message: "internal error", unexpected: true };
}
