// Multi-file programs (Judge0's language 89) on the real kernel: the `compile` script (when the
// files hold one) in the compile step under the compile limits, its work dir carried to the run,
// the `run` script with the request's arguments under the run limits; a failing compile script is
// a compile error with both of its streams as the diagnostics; the compiled work dir is cached.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import type { EngineRequest } from "../../fleet/src/engine.ts";
import { requireKernel } from "../helpers.ts";
import { useEngine } from "../kernel-fixtures.ts";

const { engine } = useEngine("codecell-multi-file-");

const SUM_C = '#include <stdio.h>\nint main(int c, char **v) { long s = 0, x; while (scanf("%ld", &x) == 1) s += x; printf("%s %ld\\n", c > 1 ? v[1] : "-", s); }\n';

const run = (request: Omit<EngineRequest, "language" | "stdin"> & { stdin?: string }) => engine.execute({ language: "multi-file", stdin: "", ...request });

describe("multi-file programs", { skip: !kernelOrCi(), concurrency: true }, () => {
  it("compile builds beside the sources, run runs what it built with the arguments; the second time the build is cached", async () => {
    const nonce = randomUUID();
    const request = {
      code: './sum "$@"\n',
      files: [
        { path: "compile", content: `# ${nonce}\ngcc -O2 -o sum src/sum.c\n` },
        { path: "src/sum.c", content: SUM_C },
      ],
      args: ["total"],
      stdin: "1 2 3 4\n",
    };
    const first = await run(request);
    assert.equal(first.result.verdict, "AC", first.result.stderr);
    assert.equal(first.result.stdout, "total 10\n");
    assert.equal(first.compileCacheHit, false);
    const second = await run(request);
    assert.equal(second.result.stdout, "total 10\n");
    assert.equal(second.compileCacheHit, true);
  });

  it("without a compile script the run script runs the files as they were sent", async () => {
    const { result } = await run({
      code: "python3 main.py < data.txt\n",
      files: [{ path: "main.py", content: "import helper\nprint(helper.twice(int(input())))\n" }, { path: "helper.py", content: "def twice(n):\n    return 2 * n\n" }, { path: "data.txt", content: "21\n" }],
    });
    assert.equal(result.verdict, "AC", result.stderr);
    assert.equal(result.stdout, "42\n");
  });

  it("a failing compile script is a compile error; both of its streams are the diagnostics; nothing runs", async () => {
    const outcome = await run({
      code: "echo ran\n",
      files: [{ path: "compile", content: "echo building\ngcc -o broken broken.c\n" }, { path: "broken.c", content: "int main( {" }],
    });
    const { result } = outcome;
    assert.equal(result.verdict, "RE");
    assert.equal(result.evidence.verdict_cause, "compile_error");
    assert.match(result.stderr, /building[\s\S]*error/);
    assert.equal(result.stdout, "");
  });

  it("the compile script runs under the compile limits, the run script under the run limits", async () => {
    const compiling = await run({ code: "echo ran\n", files: [{ path: "compile", content: "while :; do :; done\n" }], compileLimits: { wallTimeMs: 1500 } });
    assert.equal(compiling.result.verdict, "RE");
    assert.equal(compiling.result.evidence.verdict_cause, "compile_error");
    assert.match(compiling.result.error_message ?? "", /compile time limit/);
    const running = await run({ code: "sleep 30\n", files: [{ path: "compile", content: "true\n" }], limits: { wallTimeMs: 1500 } });
    assert.equal(running.result.verdict, "TLE");
    assert.ok(running.result.evidence.judge_actions.includes("sigkill_on_wall_timeout"));
  });

  it("the files may not take the name of the run script or of the compiled work dir", async () => {
    for (const path of ["run", ".multi-file-build.tar"]) {
      const { result } = await run({ code: "echo ran\n", files: [{ path, content: "x" }] });
      assert.equal(result.verdict, "RE", path);
      assert.equal(result.evidence.verdict_cause, "invalid_file_name", path);
    }
  });
});

/** Skips locally without the kernel prerequisites; under CI the engine's before() fails instead. */
function kernelOrCi(): boolean {
  try {
    return requireKernel();
  } catch {
    return true;
  }
}
