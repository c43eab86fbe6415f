// The OpenAPI 3.1 document of the public API, built from the route table (routes.ts) and the zod
// schemas (requests.ts, schemas.ts, event-stream.ts, session-messages.ts) with zod's own JSON Schema
// output: OpenAPI 3.1 schemas are JSON Schema 2020-12, so no translation layer sits between
// validation and document.
// Served at GET /api/openapi.json; `npm run openapi` writes it to docs/openapi.json.
import { z } from "zod";
import { EXAMPLES, FIELD_DOCS, requestComponents } from "./requests.ts";
import { NATIVE_ROUTES, TAGS } from "./routes.ts";
import { COMPAT_ROUTES } from "./compat.ts";
import { ADMIN_ROUTES } from "./admin-routes.ts";
import { ADMIN_FLEET_ROUTES } from "./admin-fleet-routes.ts";
import { ADMIN_WEBHOOK_ROUTES } from "./admin-webhook-routes.ts";
import { ADMIN_PARAMETERS } from "./admin-requests.ts";
import { throttled } from "./admin-responses.ts";
import type { ResponseDoc, RouteDoc } from "./routes.ts";
import { components, errorBody } from "./schemas.ts";
import "./event-stream.ts";
import "./session-messages.ts";
import { HEADERS, PARAMETERS, RATE_HEADERS, WEBHOOKS } from "./document-parts.ts";

type Json = Record<string, unknown>;

const ROUTES = [...NATIVE_ROUTES, ...COMPAT_ROUTES, ...ADMIN_ROUTES, ...ADMIN_FLEET_ROUTES, ...ADMIN_WEBHOOK_ROUTES];

export const API_VERSION = "1.1.0";
const REF = (id: string) => `#/components/schemas/${id}`;

/** Drops zod's safe-integer bounds (noise in a document) and the per-schema $schema/$id. */
function tidy({ jsonSchema }: { jsonSchema: Json }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

function schemasOf(registry: typeof components, io: "input" | "output"): Record<string, Json> {
  const out = z.toJSONSchema(registry, { target: "draft-2020-12", io, uri: REF, override: tidy }).schemas as Record<string, Json>;
  for (const schema of Object.values(out)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return out;
}

function describeFields(schemas: Record<string, Json>): void {
  for (const [id, example] of Object.entries(EXAMPLES)) if (schemas[id]) schemas[id].examples = [example];
  for (const [id, fields] of Object.entries(FIELD_DOCS)) {
    const props = (schemas[id]?.properties ?? {}) as Record<string, Json>;
    for (const [name, text] of Object.entries(fields)) if (props[name] && !props[name].description) props[name].description = text;
  }
}

function schemaRef(schema: z.ZodType): Json {
  const id = components.get(schema)?.id ?? requestComponents.get(schema)?.id;
  if (id) return { $ref: REF(id) };
  const inline = z.toJSONSchema(schema, { target: "draft-2020-12", io: "output", override: tidy }) as Json;
  delete inline.$schema;
  return inline;
}

const headerRefs = (names: string[]) => Object.fromEntries(names.map((n) => [HEADERS[n]!.name, { $ref: `#/components/headers/${n}` }]));

/** The operators' API (tag `admin`): the operator token instead of an API key, no rate limit. */
const isAdmin = (route: RouteDoc) => route.tag === "admin";

function response(route: RouteDoc, status: number, doc: ResponseDoc): Json {
  const headers = [...(doc.headers ?? []), ...(route.open || isAdmin(route) || status === 401 ? [] : RATE_HEADERS)];
  return {
    description: doc.description,
    ...(headers.length ? { headers: headerRefs(headers) } : {}),
    ...(doc.schema ? { content: { [doc.contentType ?? "application/json"]: { schema: schemaRef(doc.schema) } } } : {}),
  };
}

function operation(route: RouteDoc): Json {
  const responses: Record<number, ResponseDoc> = { ...route.responses };
  if (isAdmin(route)) {
    responses[401] ??= { description: "Missing or invalid operator token", schema: errorBody };
    responses[429] ??= { description: "Too many wrong operator tokens; retry after Retry-After seconds", schema: throttled, headers: ["RetryAfter"] };
    responses[503] ??= { description: "The admin API is disabled: OPERATOR_TOKEN is not configured or too weak", schema: errorBody };
  } else if (!route.open) {
    responses[401] ??= { description: "Missing or invalid X-API-Key", schema: errorBody };
    responses[429] ??= { description: "Rate limit or in-flight cap reached; retry after Retry-After seconds", schema: errorBody, headers: ["RetryAfter"] };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    ...(route.open ? { security: [] } : isAdmin(route) ? { security: [{ OperatorToken: [] }] } : {}),
    ...(route.parameters ? { parameters: route.parameters.map((p) => ({ $ref: `#/components/parameters/${p}` })) } : {}),
    ...(route.body ? { requestBody: { required: !route.bodyOptional, content: { "application/json": { schema: schemaRef(route.body) } } } } : {}),
    responses: Object.fromEntries(Object.entries(responses).map(([status, doc]) => [status, response(route, Number(status), doc)])),
  };
}

export function buildOpenApi(): Json {
  const schemas = { ...schemasOf(requestComponents, "input"), ...schemasOf(components, "output") };
  describeFields(schemas);
  const paths: Record<string, Json> = {};
  for (const route of ROUTES) (paths[route.path] ??= {})[route.method] = operation(route);
  return {
    openapi: "3.1.0",
    info: {
      title: "codecell API",
      version: API_VERSION,
      summary: "Sandboxed code execution",
      description: "Submit a program, get its verdict and output with the evidence behind it. Every endpoint except this document needs an API key "
        + "(X-API-Key) and counts against the key's rate limit (RateLimit-* headers). Errors are JSON {error, message?}. The operations tagged admin "
        + "are the operators' API: they need the operator token (Authorization: Bearer) instead, and are not rate limited.",
    },
    tags: Object.entries(TAGS).filter(([name]) => ROUTES.some((r) => r.tag === name)).map(([name, description]) => ({ name, description })),
    security: [{ ApiKey: [] }],
    paths,
    webhooks: WEBHOOKS,
    components: {
      schemas,
      securitySchemes: {
        ApiKey: {
          type: "apiKey", in: "header", name: "X-API-Key", description: "An API key of a project (sk_live_…); operators create them (codecell keys create)",
        },
        OperatorToken: { type: "http", scheme: "bearer", description: "The edge's OPERATOR_TOKEN (Authorization: Bearer …): the admin API only" },
      },
      parameters: { ...PARAMETERS, ...ADMIN_PARAMETERS },
      headers: Object.fromEntries(Object.entries(HEADERS).map(([id, { name: _name, ...h }]) => [id, h])),
    },
  };
}

let cached: string | undefined;
/** The document as served and committed: 2-space JSON with a final newline. */
export function openApiText(): string {
  cached ??= `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
  return cached;
}
