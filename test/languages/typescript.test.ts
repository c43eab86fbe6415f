// TypeScript on the real kernel: the compile step emits JavaScript once, the compile cache keeps
// it, and each run starts plain `node` on it (no transpiler on the run's path); what users see of
// errors still names their source, at its lines; the request's files import and are imported as
// before.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import type { EngineRequest, ExecuteOutcome } from "../../fleet/src/engine.ts";
import { requireKernel } from "../helpers.ts";
import { useEngine } from "../kernel-fixtures.ts";

const { engine } = useEngine("codecell-typescript-");

const run = (request: Partial<EngineRequest> & Pick<EngineRequest, "code">): Promise<ExecuteOutcome> =>
  engine.execute({ language: "typescript", stdin: "", ...request });
const shown = (outcome: ExecuteOutcome) => `${outcome.result.verdict} ${outcome.result.evidence.verdict_cause}: ${outcome.result.stderr.slice(0, 600)}`;

describe("typescript", { skip: !requireKernel(), concurrency: true }, () => {
  it("the second run of a source is a compile-cache hit that runs node on the emitted JavaScript, loading no transpiler", async () => {
    // Node loads its transpiler (amaro) only to strip a .ts file: the run reports whether it did.
    const code = `// ${randomUUID()}\nconst transpilers: string[] = process.moduleLoadList.filter((m: string) => m.includes("amaro"));\nconsole.log(process.argv[1], transpilers.length)`;
    const first = await run({ code });
    assert.equal(first.result.verdict, "AC", shown(first));
    assert.equal(first.compileCacheHit, false);
    assert.equal(first.result.stdout, "/box/main.js 0\n");
    const second = await run({ code });
    assert.equal(second.result.verdict, "AC", shown(second));
    assert.equal(second.compileCacheHit, true);
    assert.equal(second.result.stdout, "/box/main.js 0\n");
  });

  it("stack traces name main.ts at the source's line and column, with or without code generation", async () => {
    const boom = 'function boom(): never {\n  throw new Error("boom")\n}\nboom()';
    const stripped = await run({ code: `const n: number = 1;\n${boom}` });
    assert.equal(stripped.result.verdict, "RE", shown(stripped));
    assert.match(stripped.result.stderr, /at boom \(\/box\/main\.ts:3:9\)/);
    const transformed = await run({ code: `enum Kind { A, B }\nnamespace N { export const k = Kind.B }\n${boom}` });
    assert.equal(transformed.result.verdict, "RE", shown(transformed));
    assert.match(transformed.result.stderr, /at boom \(\/box\/main\.ts:4:9\)/);
  });

  it("a syntax error is a compile error naming main.ts and the line, without the transpiler's stack", async () => {
    const outcome = await run({ code: "const a = 1;\nconst x: number = ;\nconsole.log(a, x)" });
    assert.equal(outcome.result.verdict, "RE", shown(outcome));
    assert.equal(outcome.result.evidence.verdict_cause, "compile_error", shown(outcome));
    assert.match(outcome.result.stderr, /^\/box\/main\.ts:2\n/);
    assert.match(outcome.result.stderr, /SyntaxError \[ERR_INVALID_TYPESCRIPT_SYNTAX\]: Expression expected/);
    assert.doesNotMatch(outcome.result.stderr, /\n\s+at /);
  });

  it("the request's files sit beside the program: it imports them by relative path", async () => {
    const files = [
      { path: "util.ts", content: "export const twice = (n: number): number => 2 * n;\n" },
      { path: "lib/data.json", content: '{"n":21}' },
    ];
    const code = 'import { twice } from "./util.ts";\nimport { readFileSync } from "node:fs";\nconst { n } = JSON.parse(readFileSync(new URL("./lib/data.json", import.meta.url), "utf8"));\nconsole.log(twice(n))';
    const outcome = await run({ code, files });
    assert.equal(outcome.result.verdict, "AC", shown(outcome));
    assert.equal(outcome.result.stdout, "42\n");
  });

  it("main.js is the emitted program's name: a request's file may not take it", async () => {
    const outcome = await run({ code: "console.log(1)", files: [{ path: "main.js", content: "console.log(2)" }] });
    assert.equal(outcome.result.verdict, "RE");
    assert.equal(outcome.result.evidence.verdict_cause, "invalid_file_name");
    assert.match(outcome.result.stderr, /"main\.js" is the name of the compiled program/);
  });
});
