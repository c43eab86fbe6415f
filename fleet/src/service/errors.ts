// gRPC status codes and the one error type handlers throw. Anything else a handler throws is a
// bug: the client sees INTERNAL with a generic message and the details go to the log only.
export const Status = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;
export type StatusCode = (typeof Status)[keyof typeof Status];

export const STATUS_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(Status).map(([name, code]) => [code, name]),
);

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
