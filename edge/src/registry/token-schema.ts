// POST /admin/enrollment-tokens: what an operator may ask of a new enrollment token.
import { z } from "zod";

/** A token nobody used within an hour is of no use to a leak either (docs/operators.md). */
export const DEFAULT_TOKEN_TTL_SECS = 3600;

export const enrollmentTokenSchema = z.strictObject({
  name: z.string().max(100).optional(),
  /** 0: never expires (asked for explicitly). */
  ttl_secs: z.number().int().min(0).max(365 * 86_400).optional(),
  single_use: z.boolean().optional(),
  max_slots: z.number().int().min(1).max(1024).optional(),
  require_approval: z.boolean().optional(),
});
