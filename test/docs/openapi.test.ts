// The OpenAPI document: docs/openapi.json and the types generated from it (the SDK's, the CLI's) are what `npm run openapi`
// makes from the zod schemas today, the document is valid OpenAPI 3.1 (a real validator), and it
// describes every public endpoint, header and the webhooks.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { generated } from "../../scripts/openapi.ts";
import { DOCUMENT, assertSchema, templateOf } from "../edge/openapi-check.ts";

describe("docs/openapi.json", () => {
  it("is current: npm run openapi would not change it, client/src/api.gen.ts or cli/admin-api.gen.ts", async () => {
    for (const { path, text } of await generated()) {
      assert.equal(readFileSync(path, "utf8"), text, `${path} is stale: run npm run openapi`);
    }
  });

  it("validates as OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(DOCUMENT));
    assert.equal(validator.version, "3.1");
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
  });

  it("a broken document is refused by the same validator (the check can fail)", async () => {
    const broken = structuredClone(DOCUMENT);
    broken.paths["/api/submit"].post.responses["202"] = { content: {} };
    assert.equal((await new Validator().validate(broken)).valid, false);
  });

  it("describes every public endpoint, the key, the headers, the SSE stream and the webhooks", () => {
    const ops = Object.entries<Record<string, { operationId: string }>>(DOCUMENT.paths).flatMap(([p, m]) => Object.keys(m).map((x) => `${x.toUpperCase()} ${p}`));
    for (const op of [
      "POST /api/submit", "POST /api/submit/batch", "GET /api/result/{id}", "GET /api/results", "GET /api/result/{id}/events",
      "GET /api/runtimes", "GET /api/languages", "GET /api/health", "GET /api/health/ready", "GET /api/openapi.json",
    ]) assert.ok(ops.includes(op), `${op} missing`);
    assert.deepEqual(DOCUMENT.components.securitySchemes.ApiKey, { ...DOCUMENT.components.securitySchemes.ApiKey, type: "apiKey", in: "header", name: "X-API-Key" });
    assert.deepEqual(DOCUMENT.paths["/api/openapi.json"].get.security, []);
    const submit = DOCUMENT.paths["/api/submit"].post;
    assert.deepEqual(Object.keys(submit.responses).sort(), ["200", "202", "400", "401", "408", "413", "415", "429", "503"]);
    assert.ok(submit.responses["429"].headers["Retry-After"]);
    for (const h of ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy"]) assert.ok(submit.responses["202"].headers[h], h);
    assert.ok(submit.responses["200"].headers["Server-Timing"]);
    assert.ok(submit.parameters.some((p: { $ref: string }) => p.$ref.endsWith("/IdempotencyKey")));
    assert.deepEqual(Object.keys(DOCUMENT.paths["/api/result/{id}/events"].get.responses["200"].content), ["text/event-stream"]);
    const hook = DOCUMENT.webhooks.result.post;
    assert.deepEqual(hook.parameters.map((p: { name: string }) => p.name), ["webhook-id", "webhook-timestamp", "webhook-signature"]);
    assert.equal(hook.requestBody.content["application/json"].schema.$ref, "#/components/schemas/WebhookPayload");
  });

  it("the submit request schema is the validator's: the same fields, unknown ones refused", () => {
    const req = DOCUMENT.components.schemas.SubmitRequest;
    assert.deepEqual(req.required, ["language", "code"]);
    assert.equal(req.additionalProperties, false);
    for (const f of Object.keys(req.properties)) assert.equal(typeof req.properties[f].description, "string", `${f} undescribed`);
  });

  it("every example in the document is valid against its own schema", () => {
    const withExamples = Object.entries<{ examples?: unknown[] }>(DOCUMENT.components.schemas).filter(([, s]) => s.examples);
    assert.ok(withExamples.length >= 2);
    for (const [id, s] of withExamples) for (const ex of s.examples!) assertSchema(id, ex);
  });

  it("event messages and paths are checked by the test helper", () => {
    assertSchema("ServerSentEvent", { id: "1", event: "queued", data: { position: 0 } });
    assert.throws(() => assertSchema("ServerSentEvent", { id: "1", event: "queued", data: {} }));
    assert.throws(() => assertSchema("ServerSentEvent", { id: "2", event: "exploded", data: {} }));
    assert.equal(templateOf("/api/result/0b9d3c4e-1111-4222-8333-444455556666/events"), "/api/result/{id}/events");
    assert.equal(templateOf("/api/submit?wait=true"), "/api/submit");
  });
});
