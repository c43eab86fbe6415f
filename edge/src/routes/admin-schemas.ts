// The admin API's request bodies (zod), parsed with `parseWith` (submit/validate.ts).
import { z } from "zod";
import { POOL_NAME, POOL_NAME_RULE } from "../contracts/scheduler.ts";

export const createProjectSchema = z.strictObject({
  name: z.string().min(1).max(100),
  account_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
});

export const createKeySchema = z.strictObject({
  name: z.string().max(100).optional(),
  // Import a known key (development: DEV_API_KEY). Format checked by the handler.
  key: z.string().min(16).max(128).optional(),
  /** The key's plan (plans/plans.ts); checked to exist by the handler. */
  plan: z.string().max(63).optional(),
});

export const createWebhookSchema = z.strictObject({
  url: z.string().min(1).max(2048),
  secret: z.string().max(200).optional(),
  active: z.boolean().optional(),
  description: z.string().max(200).optional(),
});

export const updateWebhookSchema = z.strictObject({
  url: z.string().min(1).max(2048).optional(),
  active: z.boolean().optional(),
  description: z.string().max(200).optional(),
});

export const rotateWebhookSchema = z.strictObject({
  secret: z.string().max(200).optional(),
  grace_seconds: z.number().int().min(0).max(30 * 86_400).optional(),
});

export const cancelSubmissionSchema = z.strictObject({ reason: z.string().max(200).optional() });

export const registerNodeSchema = z.strictObject({
  url: z.string().url().max(2048),
  token: z.string().min(1).max(1024),
  name: z.string().max(100).optional(),
  pool: z.string().regex(POOL_NAME, POOL_NAME_RULE).optional(),
});
