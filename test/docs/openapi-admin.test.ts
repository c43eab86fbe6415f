// The admin API in the OpenAPI document: every route the admin routers register (and the /admin
// paths the Worker's entry serves itself) is an operation of the document under the `admin` tag,
// with the operator token's security and its errors; and no admin operation is documented that
// no route serves. A new admin route without its row in edge/src/openapi/admin-*-routes.ts fails here.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ROOT } from "../../scripts/stack/index.ts";
import { DOCUMENT, assertDocumented } from "../edge/openapi-check.ts";

// The routers themselves, loaded by paths the root typecheck does not follow (their handlers need
// the Workers types, which only the edge's own project has): itty-router keeps every registered
// route as [METHOD, regexp, handlers, path].
type Router = { routes: [string, RegExp, unknown, string][] };
const ADMIN = "../../edge/src/routes/admin.ts";
const WEBHOOKS = "../../edge/src/routes/admin-webhooks.ts";
const { adminRouter } = (await import(ADMIN)) as { adminRouter: Router };
const { webhooksRouter } = (await import(WEBHOOKS)) as { webhooksRouter: Router };

type Operation = { tags: string[]; security?: object[]; responses: Record<string, unknown>; requestBody?: { content: Record<string, { schema: { $ref?: string } }> } };

/** `METHOD /template` of every route the routers register; `all` catch-alls are the routers' 404s and mounts. */
function routed(): string[] {
  const routes = [...adminRouter.routes, ...webhooksRouter.routes];
  return routes.filter(([method]) => method !== "ALL").map(([method, , , path]) => `${method} ${path.replace(/:(\w+)/g, "{$1}")}`);
}

/** The /admin paths the entry (edge/src/index.ts) answers before the router: GET only. */
function servedByEntry(): string[] {
  const entry = readFileSync(join(ROOT, "edge", "src", "index.ts"), "utf8");
  return [...new Set([...entry.matchAll(/path === "(\/admin\/[^"]+)"/g)].map((m) => `GET ${m[1]}`))];
}

function documented(): Map<string, Operation> {
  const ops = new Map<string, Operation>();
  for (const [path, methods] of Object.entries<Record<string, Operation>>(DOCUMENT.paths)) {
    for (const [method, op] of Object.entries(methods)) ops.set(`${method.toUpperCase()} ${path}`, op);
  }
  return ops;
}

describe("the admin API in docs/openapi.json", () => {
  const ops = documented();
  const served = [...routed(), ...servedByEntry()];

  it("the routers are read (the check can fail)", () => {
    assert.ok(served.length >= 30, served.join("\n"));
    assert.ok(served.includes("PUT /admin/plans/{name}"));
    assert.ok(served.includes("GET /admin/projects/{id}/webhooks/{wid}/deliveries/{sub}"));
    assert.ok(served.includes("GET /admin/metrics"));
  });

  it("every admin route is an operation of the document under the admin tag", () => {
    const missing = served.filter((op) => !ops.has(op));
    assert.deepEqual(missing, [], "admin routes without an operation in the document (edge/src/openapi/admin-*routes.ts)");
    for (const op of served) assert.deepEqual(ops.get(op)!.tags, ["admin"], op);
  });

  it("every operation under /admin, and only those, is tagged admin and served by a route", () => {
    for (const [name, op] of ops) {
      const admin = name.split(" ")[1]!.startsWith("/admin/");
      assert.equal(op.tags.includes("admin"), admin, name);
      if (admin) assert.ok(served.includes(name), `${name} is documented but no admin route serves it`);
    }
  });

  it("the admin tag says what it is; its operations need the operator token and document its refusals", () => {
    const tag = DOCUMENT.tags.find((t: { name: string }) => t.name === "admin");
    assert.match(tag.description, /operator token/);
    assert.deepEqual(DOCUMENT.components.securitySchemes.OperatorToken, { ...DOCUMENT.components.securitySchemes.OperatorToken, type: "http", scheme: "bearer" });
    for (const name of served) {
      const op = ops.get(name)!;
      assert.deepEqual(op.security, [{ OperatorToken: [] }], name);
      for (const status of ["401", "429", "503"]) assert.ok(op.responses[status], `${name}: ${status} undocumented`);
      assert.ok(Object.keys(op.responses).some((s) => s.startsWith("2")), `${name}: no success answer`);
    }
  });

  it("the test helper refuses an admin answer the document does not describe (the edge and operator suites' check can fail)", () => {
    const json = { "content-type": "application/json" };
    const project = { id: "prj_1", name: "a", account_id: "acct_1", created_at: "2026-01-01T00:00:00.000Z" };
    assertDocumented("GET", "/admin/projects/prj_1", { status: 200, headers: json, json: project });
    assert.throws(() => assertDocumented("GET", "/admin/projects/prj_1", { status: 200, headers: json, json: { ...project, extra: 1 } }));
    assert.throws(() => assertDocumented("GET", "/admin/projects/prj_1", { status: 200, headers: json, json: { id: "prj_1" } }));
    assert.throws(() => assertDocumented("GET", "/admin/projects/prj_1", { status: 418, headers: json, json: { error: "teapot" } }));
  });

  it("request bodies are the routes' zod schemas: unknown fields refused", () => {
    const withBody = served.filter((name) => ops.get(name)!.requestBody);
    assert.ok(withBody.length >= 9, withBody.join("\n"));
    for (const name of withBody) {
      const ref = ops.get(name)!.requestBody!.content["application/json"]!.schema.$ref!;
      const schema = DOCUMENT.components.schemas[ref.split("/").pop()!];
      assert.equal(schema.additionalProperties, false, `${name}: ${ref}`);
    }
  });
});
