// Submit request validation with zod, and the zod glue every route uses (`parseWith`, `issueText`).
// Messages are written for the caller, not for us.
import { z } from "zod";
import { canonicalLanguage } from "../../../proto/languages.ts";
import { MAX_CODE_BYTES, MAX_STDIN_BYTES, utf8Length } from "../../../proto/limits.ts";
import { HttpError } from "../lib/http.ts";
import { EXTENDED_FIELDS, extendedShape, extendedInput } from "./submit-schema.ts";
import type { ExtendedInput } from "./submit-schema.ts";
import { DEFAULT_CAPS } from "../plans/plan-caps.ts";
import type { Plan } from "../plans/plan-caps.ts";

/** JSON escaping can inflate text up to 6x (\u0000); 2 MiB leaves room for maximal code + stdin. */
export const MAX_SUBMIT_BODY_BYTES = 2 * 1024 * 1024;

const str = (field: string) =>
  z.string({ error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a string`) });

export const submitSchema = z.strictObject({
  language: str("language"),
  code: str("code"),
  stdin: str("stdin").optional(),
  ...extendedShape,
});

export interface SubmitInput extends Omit<ExtendedInput, "stdin_bytes"> {
  /** As requested (an alias, a name), until the language check makes it `canonical`. */
  language: string;
  /** The language's canonical name, resolved once here; null when the request names none. */
  canonical: string | null;
}


/** A field's path as the API documents it: `tests[2].stdin`. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i > 0 ? "." : ""}${String(p)}`)).join("");
}

export function issueText(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      if (i.code === "unrecognized_keys") return `unknown field(s): ${i.keys.map((k) => (i.path.length ? `${pathText(i.path)}.${k}` : k)).join(", ")}`;
      const path = pathText(i.path);
      const ownMessage = i.code === "invalid_type" && !EXTENDED_FIELDS.includes(String(i.path[0]));
      return ownMessage || !path ? i.message : `${path}: ${i.message}`;
    })
    .join("; ");
}

/** 400 body of a shape error: `invalid request`, or `invalid <field>` when it is one of the 1.1 fields. */
function shapeError(error: z.ZodError): HttpError {
  const first = error.issues[0];
  const field = first && first.code !== "unrecognized_keys" && EXTENDED_FIELDS.includes(String(first.path[0])) ? pathText(first.path) : null;
  return new HttpError(400, { error: field ? `invalid ${field}` : "invalid request", message: issueText(error) });
}

/**
 * Shape and limits of a submission (docs/api.md; the 1.1 fields in submit-schema.ts) against
 * the key's plan. The language and version are checked separately.
 */
export function parseSubmit(body: Record<string, unknown>, plan: Plan = DEFAULT_CAPS): SubmitInput {
  // Per-request webhook fields get their own message (docs/api.md): delivery targets come from the project.
  const webhookFields = ["webhook_url", "webhook_secret"].filter((f) => Object.hasOwn(body, f));
  if (webhookFields.length > 0) {
    throw new HttpError(400, {
      error: `unsupported field(s): ${webhookFields.join(", ")}; webhooks are configured on the project of the API key`,
    });
  }
  const parsed = submitSchema.safeParse(body);
  if (!parsed.success) throw shapeError(parsed.error);
  if (parsed.data.code.length === 0) throw new HttpError(400, { error: "code must not be empty" });
  const canonical = canonicalLanguage(parsed.data.language);
  const input = extendedInput(parsed.data, plan, canonical);
  if (input.code.length === 0) throw new HttpError(400, { error: "code must not be empty" });
  const codeBytes = utf8Length(input.code);
  if (codeBytes > MAX_CODE_BYTES) {
    throw new HttpError(400, { error: `code too large: ${codeBytes} bytes (maximum ${MAX_CODE_BYTES} bytes)` });
  }
  if (input.stdin_bytes > MAX_STDIN_BYTES) {
    throw new HttpError(400, { error: `stdin too large: ${input.stdin_bytes} bytes (maximum ${MAX_STDIN_BYTES} bytes)` });
  }
  const { stdin_bytes: _stdinBytes, ...checked } = input;
  return { language: parsed.data.language, canonical, ...checked };
}

/** `wait`: "true" → sync; absent or "false" → async; anything else → 400 (docs/api.md). */
export function parseWait(url: URL): boolean {
  const values = url.searchParams.getAll("wait");
  if (values.length === 0) return false;
  if (values.length === 1 && values[0] === "true") return true;
  if (values.length === 1 && values[0] === "false") return false;
  throw new HttpError(400, { error: "invalid wait parameter", message: "wait must be 'true' or 'false'" });
}

export function parseWith<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, { error: "invalid request", message: issueText(parsed.error) });
  return parsed.data;
}
