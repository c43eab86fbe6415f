// Response validation against the OpenAPI document (docs/openapi.json) with ajv (JSON Schema
// 2020-12, the dialect of OpenAPI 3.1): the status must be documented for the route, and the body
// must match the documented schema of its content type.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { ROOT } from "../../scripts/stack/index.ts";

export const DOCUMENT = JSON.parse(readFileSync(join(ROOT, "docs", "openapi.json"), "utf8"));

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(DOCUMENT, "openapi.json");

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
const compiled = new Map<string, ValidateFunction>();

/** The documented path template a concrete path matches, e.g. /api/result/{id} for /api/result/<uuid>. */
export function templateOf(path: string): string {
  const bare = path.split("?")[0]!;
  // A literal path wins over a template that also matches it (/x/batch before /x/{token}).
  const templates = Object.keys(DOCUMENT.paths).sort((a, b) => a.split("{").length - b.split("{").length);
  for (const template of templates) {
    const re = new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`);
    if (re.test(bare)) return template;
  }
  throw new Error(`${bare} is not a documented path`);
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json?: unknown;
  text?: string;
}

/** Asserts that `res` is a documented answer of `method path`; returns the validated JSON body. */
export function assertDocumented(method: string, path: string, res: Answer): unknown {
  const template = templateOf(path);
  const op = DOCUMENT.paths[template]?.[method.toLowerCase()];
  assert.ok(op, `${method} ${template} is not documented`);
  const response = op.responses[String(res.status)];
  assert.ok(response, `${method} ${template}: status ${res.status} is not documented (documented: ${Object.keys(op.responses).join(", ")})`);
  for (const [name, header] of Object.entries<{ $ref: string }>(response.headers ?? {})) {
    const def = DOCUMENT.components.headers[header.$ref.split("/").pop()!];
    if (def.required) assert.ok(res.headers[name.toLowerCase()] !== undefined, `${method} ${template} ${res.status}: header ${name} missing`);
  }
  const contentType = String(res.headers["content-type"] ?? "").split(";")[0]!.trim();
  const media = Object.keys(response.content ?? {});
  if (media.length === 0) return undefined;
  assert.ok(media.includes(contentType), `${method} ${template} ${res.status}: content-type ${contentType}, documented ${media.join(", ")}`);
  if (contentType !== "application/json") return undefined;
  const ref = `openapi.json#/${pointer("paths", template, method.toLowerCase(), "responses", String(res.status), "content", contentType, "schema")}`;
  let validate = compiled.get(ref);
  if (!validate) compiled.set(ref, (validate = ajv.compile({ $ref: ref })));
  const body = res.json !== undefined ? res.json : JSON.parse(res.text ?? "null");
  assert.ok(validate(body), `${method} ${template} ${res.status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
  return body;
}

/** Validates a value against a component schema, e.g. one SSE event's message against ServerSentEvent. */
export function assertSchema(component: string, value: unknown): void {
  const ref = `openapi.json#/components/schemas/${component}`;
  let validate = compiled.get(ref);
  if (!validate) compiled.set(ref, (validate = ajv.compile({ $ref: ref })));
  assert.ok(validate(value), `${component}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 500)}`);
}

/** Asserts that `body` is one of the success (2xx) JSON answers of the operation `operationId`. */
export function assertOperationAnswer(operationId: string, body: unknown): void {
  const found = Object.entries<Record<string, { operationId?: string; responses: Record<string, { content?: Record<string, unknown> }> }>>(DOCUMENT.paths)
    .flatMap(([template, methods]) => Object.entries(methods).map(([method, op]) => ({ template, method, op })))
    .find((x) => x.op.operationId === operationId);
  assert.ok(found, `${operationId} is not an operation of the document`);
  const statuses = Object.keys(found.op.responses).filter((s) => s.startsWith("2") && found.op.responses[s]!.content?.["application/json"]);
  const failures: string[] = [];
  for (const status of statuses) {
    const ref = `openapi.json#/${pointer("paths", found.template, found.method, "responses", status, "content", "application/json", "schema")}`;
    let validate = compiled.get(ref);
    if (!validate) compiled.set(ref, (validate = ajv.compile({ $ref: ref })));
    if (validate(body)) return;
    failures.push(`${status}: ${ajv.errorsText(validate.errors)}`);
  }
  assert.fail(`${operationId}: not a documented answer (${failures.join("; ") || "no JSON success answer"})\n${JSON.stringify(body).slice(0, 500)}`);
}
