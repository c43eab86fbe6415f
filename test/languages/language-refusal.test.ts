// An unknown language or version is one refusal on both sides (proto/language-errors.ts): the
// node's door (fleet/src/service/validation.ts, over languages/resolve.ts, which the engine uses
// too) and the edge's submission check (edge/src/submit/submit-check.ts) send the same message,
// the checker's and interactor's with their field first.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ExecuteRequest } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { languageRefusalBody, unknownLanguage, unknownVersion } from "../../proto/language-errors.ts";
import type { LanguageInfo } from "../../fleet/src/engine.ts";
import { LanguageRefused, resolveRun } from "../../fleet/src/languages/resolve.ts";
import { resolveLanguages } from "../../fleet/src/service/validation.ts";
import { ServiceError } from "../../fleet/src/service/errors.ts";
import { checkSubmission } from "../../edge/src/submit/submit-check.ts";
import { DEFAULT_CAPS } from "../../edge/src/plans/plan-caps.ts";
import { HttpError } from "../../edge/src/lib/http.ts";

const info = (name: string, version: string, aliases: string[], isDefault: boolean): LanguageInfo =>
  ({ name, version, aliases, default: isDefault, compiled: name !== "python", libraries: [] });
const OFFERED = [info("python", "3.11.2", ["3.11"], true), info("go", "1.19.8", ["1.19"], true), info("go", "1.23.5", ["1.23"], false)];
const RUNTIMES = OFFERED.map((l) => ({ ...l, language: l.name }));
const STATUS = { ready_nodes: 1, workers: 1, queue_depth: 0, enforcement_mode: "strict", languages: ["python", "go"], runtimes: RUNTIMES, reasons: [] };

/** The node's door: the INVALID_ARGUMENT message, or null when it resolves. */
function nodeRefusal(request: Partial<ExecuteRequest>): string | null {
  try {
    resolveLanguages({ language: "python", version: "", ...request } as ExecuteRequest, OFFERED);
    return null;
  } catch (error) {
    assert.ok(error instanceof ServiceError);
    return error.message;
  }
}

/** The edge's check: the 400 body, or null when it passes. */
async function edgeRefusal(body: Record<string, unknown>): Promise<unknown> {
  try {
    await checkSubmission({ language: "python", code: "print(1)", ...body }, DEFAULT_CAPS, async () => STATUS as never);
    return null;
  } catch (error) {
    assert.ok(error instanceof HttpError, String(error));
    return error.body;
  }
}

describe("one refusal for an unknown language or version", () => {
  it("resolves a request's languages once: canonical names and listed versions, the checker's and interactor's too", () => {
    assert.deepEqual(resolveRun(OFFERED, { language: "py", checker: { language: "go", version: "1.23" }, interactor: { language: "python" } }), {
      program: { language: "python", version: "3.11.2" },
      checker: { language: "go", version: "1.23.5" },
      interactor: { language: "python", version: "3.11.2" },
    });
    assert.throws(() => resolveRun(OFFERED, { language: "go", version: "1.5" }), (e: unknown) =>
      e instanceof LanguageRefused && e.refusal.kind === "unknown_version" && e.refusal.field === "version");
  });

  it("the node and the edge send the same message for the program's language and version", async () => {
    const language = unknownLanguage("cobol", ["python", "go"]);
    assert.equal(language.message, 'unsupported language "cobol"; available: python, go');
    assert.equal(nodeRefusal({ language: "cobol" }), language.message);
    assert.deepEqual(await edgeRefusal({ language: "cobol" }), languageRefusalBody(language));
    const version = unknownVersion("go", "1.5", ["1.19.8", "1.23.5"]);
    assert.equal(version.message, 'unknown version "1.5" of go; available: 1.19.8, 1.23.5');
    assert.equal(nodeRefusal({ language: "go", version: "1.5" }), version.message);
    assert.deepEqual(await edgeRefusal({ language: "go", code: "package main", version: "1.5" }), languageRefusalBody(version));
  });

  it("a checker's and an interactor's version: the same message, their field first, on both sides", async () => {
    for (const role of ["checker", "interactor"] as const) {
      const version = unknownVersion("python", "0.1", ["3.11.2"], role);
      assert.equal(version.message, `${role}.version: unknown version "0.1" of python; available: 3.11.2`);
      assert.equal(nodeRefusal({ [role]: { language: "python", code: "x", version: "0.1", files: [] } }), version.message);
      const judge = { language: "python", code: "print(1)", version: "0.1" };
      assert.deepEqual(await edgeRefusal({ tests: [{ stdin: "" }], [role]: judge }), languageRefusalBody(version));
    }
    assert.equal(nodeRefusal({ checker: { language: "cobol", code: "x", version: "", files: [] } as never }),
      'checker.language: unsupported language "cobol"; available: python, go');
  });

  it("a long name is cut to 32 characters in the message", () => {
    assert.equal(unknownLanguage("x".repeat(100), []).message, `unsupported language "${"x".repeat(32)}"; available: none right now`);
  });
});
