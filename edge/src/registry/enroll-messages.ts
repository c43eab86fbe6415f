// The bodies of /fleet/* (enrollment.proto), decoded and checked: sizes and formats with zod.
import { z } from "zod";
import { EnrollRequest, HeartbeatRequest, LeaveRequest } from "../../../proto/gen/codecell/fleet/v1/enrollment.ts";
import type { MessageFns } from "../../../proto/gen/codecell/fleet/v1/enrollment.ts";
import { DEFAULT_POOL, POOL_NAME, POOL_NAME_RULE } from "../contracts/scheduler.ts";
import { issueText } from "../submit/validate.ts";
import { nodeUrlProblem } from "./node-url.ts";


const nodeId = z.string().min(1).max(100);

const enrollSchema = z.object({
  url: z.string().max(2048).refine((u) => nodeUrlProblem(u) === null, { error: (iss) => nodeUrlProblem(String(iss.input)) ?? "invalid node url" }),
  token: z.string().min(16).max(1024),
  name: z.string().max(100),
  pool: z.string().max(63).refine((p) => p === "" || POOL_NAME.test(p), { error: POOL_NAME_RULE })
    .transform((p) => p || DEFAULT_POOL),
});

function decode<T>(type: MessageFns<T>, body: Uint8Array): T | string {
  try {
    return type.decode(body);
  } catch {
    return "the body must be a protobuf message (content-type application/x-protobuf, see proto/codecell/fleet/v1/enrollment.proto)";
  }
}

function checked<T>(schema: z.ZodType<T>, value: unknown): T | string {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : issueText(parsed.error);
}

export function parseEnroll(body: Uint8Array): z.infer<typeof enrollSchema> | string {
  const msg = decode(EnrollRequest, body);
  return typeof msg === "string" ? msg : checked(enrollSchema, msg);
}

export function parseHeartbeat(body: Uint8Array): HeartbeatRequest | string {
  const msg = decode(HeartbeatRequest, body);
  if (typeof msg === "string") return msg;
  const id = checked(nodeId, msg.nodeId);
  return id === msg.nodeId ? msg : `node_id: ${id}`;
}

export function parseLeave(body: Uint8Array): LeaveRequest | string {
  const msg = decode(LeaveRequest, body);
  if (typeof msg === "string") return msg;
  const id = checked(nodeId, msg.nodeId);
  return id === msg.nodeId ? msg : `node_id: ${id}`;
}
