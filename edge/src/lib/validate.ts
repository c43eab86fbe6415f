// Request validation with zod. Messages are written for the caller, not for us.
import { z } from "zod";
import { MAX_CODE_BYTES, MAX_STDIN_BYTES, utf8Length } from "../../../proto/limits.ts";
import { POOL_NAME, POOL_NAME_RULE } from "../contracts/scheduler.ts";
import { HttpError } from "./http.ts";

/** JSON escaping can inflate text up to 6x (\u0000); 2 MiB leaves room for maximal code + stdin. */
export const MAX_SUBMIT_BODY_BYTES = 2 * 1024 * 1024;

const str = (field: string) =>
  z.string({ error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a string`) });

export const submitSchema = z.strictObject({
  language: str("language"),
  code: str("code"),
  stdin: str("stdin").optional(),
});

export interface SubmitInput {
  language: string;
  code: string;
  stdin: string;
}

export function issueText(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      if (i.code === "unrecognized_keys") return `unknown field(s): ${i.keys.join(", ")}`;
      const path = i.path.join(".");
      return i.code === "invalid_type" || !path ? i.message : `${path}: ${i.message}`;
    })
    .join("; ");
}

/** Shape and limits of a submission (spec §2.5, §7, §8). The language is checked separately. */
export function parseSubmit(body: Record<string, unknown>): SubmitInput {
  // Per-request webhook fields get their own message (spec §4.1): delivery targets come from the project.
  const webhookFields = ["webhook_url", "webhook_secret"].filter((f) => Object.hasOwn(body, f));
  if (webhookFields.length > 0) {
    throw new HttpError(400, {
      error: `unsupported field(s): ${webhookFields.join(", ")}; webhooks are configured on the project of the API key`,
    });
  }
  const parsed = submitSchema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, { error: "invalid request", message: issueText(parsed.error) });
  const { language, code } = parsed.data;
  const stdin = parsed.data.stdin ?? "";
  if (code.length === 0) throw new HttpError(400, { error: "code must not be empty" });
  const codeBytes = utf8Length(code);
  if (codeBytes > MAX_CODE_BYTES) {
    throw new HttpError(400, { error: `code too large: ${codeBytes} bytes (maximum ${MAX_CODE_BYTES} bytes)` });
  }
  const stdinBytes = utf8Length(stdin);
  if (stdinBytes > MAX_STDIN_BYTES) {
    throw new HttpError(400, { error: `stdin too large: ${stdinBytes} bytes (maximum ${MAX_STDIN_BYTES} bytes)` });
  }
  return { language, code, stdin };
}

/** `wait`: "true" → sync; absent or "false" → async; anything else → 400 (DESIGN §2). */
export function parseWait(url: URL): boolean {
  const values = url.searchParams.getAll("wait");
  if (values.length === 0) return false;
  if (values.length === 1 && values[0] === "true") return true;
  if (values.length === 1 && values[0] === "false") return false;
  throw new HttpError(400, { error: "invalid wait parameter", message: "wait must be 'true' or 'false'" });
}

export const createProjectSchema = z.strictObject({
  name: z.string().min(1).max(100),
  account_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
});

export const createKeySchema = z.strictObject({
  name: z.string().max(100).optional(),
  // Import a known key (development: DEV_API_KEY). Format checked by the handler.
  key: z.string().min(16).max(128).optional(),
});

export const createWebhookSchema = z.strictObject({
  url: z.string().min(1).max(2048),
  secret: z.string().max(200).optional(),
  active: z.boolean().optional(),
});

export const registerNodeSchema = z.strictObject({
  url: z.string().url().max(2048),
  token: z.string().min(1).max(1024),
  name: z.string().max(100).optional(),
  pool: z.string().regex(POOL_NAME, POOL_NAME_RULE).optional(),
});

export function parseWith<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, { error: "invalid request", message: issueText(parsed.error) });
  return parsed.data;
}
