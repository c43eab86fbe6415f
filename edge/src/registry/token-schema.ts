// POST /admin/enrollment-tokens: what an operator may ask of a new enrollment token.
import { z } from "zod";

/** A token nobody used within an hour is of no use to a leak either (docs/operators.md). */
export const DEFAULT_TOKEN_TTL_SECS = 3600;
/** One node per token unless the operator asks for more: a leaked token is worth one machine at most. */
export const DEFAULT_TOKEN_USES = 1;

export const enrollmentTokenSchema = z.strictObject({
  name: z.string().max(100).optional(),
  /** 0: never expires (asked for explicitly). */
  ttl_secs: z.number().int().min(0).max(365 * 86_400).optional(),
  /** Node addresses it may enroll; default 1 (docs/operators.md). */
  max_uses: z.number().int().min(1).max(10_000).optional(),
  max_slots: z.number().int().min(1).max(1024).optional(),
  require_approval: z.boolean().optional(),
});
