// Limits and formats both sides of the contract enforce (docs/api.md): the edge refuses a
// request over them with a 400, a fleet node refuses the call with INVALID_ARGUMENT.

export const MAX_CODE_BYTES = 64 * 1024;
export const MAX_STDIN_BYTES = 256 * 1024;

/** Linux file names are at most 255 bytes (one path segment). */
export { MAX_FILE_NAME_BYTES } from "../languages/kit/file-names.ts";

/** Submission ids and idempotency keys: a UUID, either case (the canonical form is lower case). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

/**
 * The largest ExecuteRequest (encoded message bytes) a node reads, on either transport; a bigger
 * one is refused with RESOURCE_EXHAUSTED before it is decoded. The edge's own POST /api/submit
 * takes a JSON body of at most 2 MiB, which encodes to at most about 2.3 MiB (base64 stdin travels
 * both as text and as bytes): 4 MiB leaves room for that, and is grpc-js's default too.
 */
export const MAX_EXECUTE_REQUEST_BYTES = 4 * 1024 * 1024;

/**
 * The status message (with RESOURCE_EXHAUSTED) of a request over that cap. A node's full queue is
 * RESOURCE_EXHAUSTED too, so the edge tells them apart by this text: another node may take a run
 * a full queue refused, none takes one that is too large.
 */
export const REQUEST_TOO_LARGE = "request too large";

/**
 * A submission's output budget: the output bytes (both streams, every test, each byte once) that
 * a node sends and a record keeps. Past it output is counted and dropped (the record's
 * `output_budget`). The default is a plan's unless it names one; a node never goes above the cap.
 */
export const OUTPUT_BUDGET_DEFAULT_BYTES = 2 * 1024 * 1024;
export const OUTPUT_BUDGET_MAX_BYTES = 8 * 1024 * 1024;
