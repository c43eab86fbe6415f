// The size of a message a node sends, without encoding it: an upper bound of its protobuf encoding
// (the run registry counts retained results with it), and the guard that keeps every message within
// the gRPC-Web frame cap (docs/fleet-node.md, "Output budget").
import { MAX_FRAME_BYTES } from "../../../proto/grpc-web/codec.ts";
import { ServiceError, Status } from "./errors.ts";

/** The largest message a node sends: the edge's gRPC-Web reader refuses a bigger frame. */
export const MAX_MESSAGE_BYTES = MAX_FRAME_BYTES;

/** A field's tag (field numbers below 2048: at most 2 bytes) and length prefix (at most 5 bytes). */
const FIELD = 7;
/** A scalar field: tag and a varint of at most 10 bytes (a negative int32), or a fixed64. */
const SCALAR = 12;
/** google.protobuf.Timestamp: two scalars inside a field. */
const TIMESTAMP = FIELD + 2 * SCALAR;

/**
 * An upper bound of the protobuf encoding of a ts-proto message object (strings by their UTF-8
 * length, bytes by theirs, every field at its largest tag and length prefix). Linear in the
 * message's fields; the text itself is measured, not copied.
 */
export function encodedSizeBound(value: unknown): number {
  switch (typeof value) {
    case "string":
      return FIELD + Buffer.byteLength(value, "utf8");
    case "number":
    case "bigint":
      return SCALAR;
    case "boolean":
      return SCALAR;
    case "object":
      break;
    default:
      return 0;
  }
  if (value === null) return 0;
  if (value instanceof Uint8Array) return FIELD + value.byteLength;
  if (value instanceof Date) return TIMESTAMP;
  let total = FIELD;
  if (Array.isArray(value)) {
    for (const item of value) total += encodedSizeBound(item);
    return total;
  }
  for (const key in value) total += encodedSizeBound((value as Record<string, unknown>)[key]);
  return total;
}

interface Encoder<T> {
  encode(message: T): { finish(): Uint8Array };
}

/**
 * Throws INTERNAL when `message` would not fit one frame, so the call ends with a clean status
 * instead of a frame the reader refuses (a broken stream, a node declared lost, the program run
 * again). The cheap bound clears every ordinary message; only one above it is encoded to be sure.
 */
export function assertFits<T>(typeName: string, message: T, type: Encoder<T>, cap = MAX_MESSAGE_BYTES): void {
  if (encodedSizeBound(message) <= cap) return;
  const size = type.encode(message).finish().length;
  if (size <= cap) return;
  throw new ServiceError(Status.INTERNAL, `${typeName} of ${size} bytes exceeds the ${cap}-byte frame cap`);
}
