// The judge on the real kernel, at the engine: expected output and the four compare modes, test
// cases (compile once, one run per test, aggregation, stop on first failure), per-request limits,
// files beside the source, args, compiler options, binary stdin/stdout, Java's main class.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EngineRequest, ExecuteOutcome, TestOutcome } from "../../fleet/src/engine.ts";
import { requireKernel } from "../helpers.ts";
import { useEngine } from "../kernel-fixtures.ts";

const MiB = 1024 * 1024;
const { engine } = useEngine("codecell-judge-");

const run = (request: Partial<EngineRequest> & Pick<EngineRequest, "language" | "code">): Promise<ExecuteOutcome> =>
  engine.execute({ stdin: "", ...request });

/** A Python program that prints its stdin unchanged (no newline added). */
const ECHO = "import sys\nsys.stdout.write(sys.stdin.read())";

describe("expected output and compare modes", { concurrency: 2 }, () => {
  // [compare, actual, expected, verdict]
  const cases: [EngineRequest["check"] & {}, string, string, "AC" | "WA"][] = [
    [{ compare: "exact" }, "1\n", "1\n", "AC"],
    [{ compare: "exact" }, "1\n", "1", "WA"],
    [{ compare: "exact" }, "1 \n", "1\n", "WA"],
    [{ compare: "lines" }, "1  \r\n2\n\n\n", "1\n2", "AC"],
    [{ compare: "lines" }, "1\n3\n", "1\n2\n", "WA"],
    [{ compare: "lines" }, " 1\n", "1\n", "WA"],
    [{ compare: "tokens" }, "1   2\n\n3", "1 2 3\n", "AC"],
    [{ compare: "tokens" }, "1 2\n", "1 3\n", "WA"],
    [{ compare: "float" }, "nan NaN -nan\n", "nan nan nan\n", "AC"],
    [{ compare: "float" }, "nan\n", "0\n", "WA"],
    [{ compare: "float" }, "-0 -0.0\n", "0 0\n", "AC"],
    [{ compare: "float" }, "1e-9\n", "0\n", "AC"],
    [{ compare: "float" }, "0.001\n", "0\n", "WA"],
    [{ compare: "float", floatEpsilon: 1e-2 }, "0.001\n", "0\n", "AC"],
    [{ compare: "float" }, "1000000.5\n", "1000000\n", "AC"],
    [{ compare: "float" }, "1.5 x\n", "1.5 y\n", "WA"],
  ];
  for (const [rule, actual, expected, verdict] of cases) {
    it(`${rule.compare}${rule.floatEpsilon ? ` ε=${rule.floatEpsilon}` : ""}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)} is ${verdict}`, async (t) => {
      if (!requireKernel(t)) return;
      const { result } = await run({ language: "python", code: ECHO, stdin: actual, check: { ...rule, expected } });
      assert.equal(result.verdict, verdict, result.error_message ?? "");
      assert.equal(result.stdout, actual);
      if (verdict === "WA") {
        assert.equal(result.evidence.verdict_cause, "output_mismatch");
        assert.equal(result.evidence.verdict_actor, "judge");
        assert.ok(result.evidence.mismatch, "the mismatch is evidence");
        assert.ok(result.evidence.mismatch.line >= 1);
        assert.equal(result.error_message, result.evidence.mismatch.message);
        assert.equal(result.exit_code, 0, "the kernel's outcome stays in the record");
      } else {
        assert.equal(result.evidence.mismatch, undefined);
      }
    });
  }

  it("a run that failed in the kernel keeps its verdict (no WA over RE)", async (t) => {
    if (!requireKernel(t)) return;
    const { result } = await run({ language: "python", code: "print(1)\nraise SystemExit(3)", check: { compare: "lines", expected: "2" } });
    assert.equal(result.verdict, "RE");
    assert.equal(result.evidence.mismatch, undefined);
  });
});

describe("tests", { concurrency: 1 }, () => {
  it("a compile error with tests is one RE record, tests empty, nothing run", async (t) => {
    if (!requireKernel(t)) return;
    const finished: number[] = [];
    const outcome = await run({
      language: "c",
      code: "int main(void) { return undeclared; }",
      tests: [{ name: "a", stdin: "" }, { name: "b", stdin: "" }],
      onTest: (index) => finished.push(index),
    });
    assert.equal(outcome.result.verdict, "RE");
    assert.equal(outcome.result.evidence.verdict_cause, "compile_error");
    assert.match(outcome.result.stderr, /undeclared/);
    assert.deepEqual(outcome.tests, []);
    assert.deepEqual(finished, []);
  });

  it("every test with its expected output: all AC, named, events in order, sums and peak", async (t) => {
    if (!requireKernel(t)) return;
    const events: [number, TestOutcome][] = [];
    const outcome = await run({
      language: "cpp",
      code: "#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << '\\n'; }",
      tests: [
        { name: "small", stdin: "1 2", expected: "3\n" },
        { name: "", stdin: "40 2", expected: "42" },
        { name: "big", stdin: "1000000000000 1", expected: new TextEncoder().encode("1000000000001\n") },
      ],
      check: { compare: "lines" },
      onTest: (index, test) => events.push([index, test]),
    });
    assert.equal(outcome.result.verdict, "AC");
    assert.deepEqual(outcome.tests!.map((test) => [test.name, test.result.verdict, test.result.stdout]), [
      ["small", "AC", "3\n"],
      ["test-2", "AC", "42\n"],
      ["big", "AC", "1000000000001\n"],
    ]);
    assert.deepEqual(events.map(([index, test]) => [index, test.name]), [[0, "small"], [1, "test-2"], [2, "big"]]);
    assert.equal(outcome.result.stdout, "1000000000001\n", "the last test decides when all pass");
    const wall = outcome.tests!.reduce((sum, test) => sum + test.result.wall_time_secs, 0);
    assert.ok(Math.abs(outcome.result.wall_time_secs - wall) < 1e-9, "wall time is the sum");
    assert.equal(outcome.result.memory_peak_bytes, Math.max(...outcome.tests!.map((test) => test.result.memory_peak_bytes)));
  });

  it("the first failing test decides; every test runs without stop_on_first_failure", async (t) => {
    if (!requireKernel(t)) return;
    const tests = [
      { name: "ok", stdin: "1", expected: "1" },
      { name: "wrong", stdin: "2", expected: "3" },
      { name: "crash", stdin: "boom", expected: "boom" },
      { name: "ok-again", stdin: "4", expected: "4" },
    ];
    const code = "import sys\ns = sys.stdin.read()\nif s == 'boom': raise SystemExit(5)\nprint(s)";
    const all = await run({ language: "python", code, tests, check: { compare: "lines" } });
    assert.deepEqual(all.tests!.map((test) => test.result.verdict), ["AC", "WA", "RE", "AC"]);
    assert.equal(all.result.verdict, "WA");
    assert.equal(all.result.stdout, "2\n", "the deciding test's output");
    assert.equal(all.result.evidence.mismatch?.expected, "3");

    const stopped = await run({ language: "python", code, tests, check: { compare: "lines" }, stopOnFirstFailure: true });
    assert.deepEqual(stopped.tests!.map((test) => test.name), ["ok", "wrong"], "tests after the first failure are not run");
    assert.equal(stopped.result.verdict, "WA");
  });

  it("each test runs in a fresh sandbox: a file one test writes is gone in the next", async (t) => {
    if (!requireKernel(t)) return;
    const code = "import os\nprint(os.path.exists('mark'))\nopen('mark', 'w').write('x')";
    const outcome = await run({ language: "python", code, tests: [{ name: "1", stdin: "" }, { name: "2", stdin: "" }] });
    assert.deepEqual(outcome.tests!.map((test) => test.result.stdout), ["False\n", "False\n"]);
  });
});

describe("limits, files, args, options, bytes", { concurrency: 2 }, () => {
  // Every page written through a volatile pointer: the compiler cannot drop the allocation.
  const HOG_100_MIB =
    "#include <stdlib.h>\n#include <stdio.h>\nint main(void) { volatile char *p = malloc(100 << 20); long sum = 0; for (long i = 0; i < (100 << 20); i += 4096) p[i] = 1; for (long i = 0; i < (100 << 20); i += 4096) sum += p[i]; printf(\"%ld\\n\", sum); }";

  it("a 64 MiB memory limit makes a 100 MiB allocation MLE; the default allows it", async (t) => {
    if (!requireKernel(t)) return;
    const narrowed = await run({ language: "c", code: HOG_100_MIB, limits: { memoryBytes: 64 * MiB } });
    assert.equal(narrowed.result.verdict, "MLE");
    assert.equal(narrowed.result.evidence.cgroup.memory_limit_bytes, 64 * MiB);
    const byDefault = await run({ language: "c", code: HOG_100_MIB });
    assert.equal(byDefault.result.verdict, "AC", byDefault.result.error_message ?? "");
    assert.equal(byDefault.result.stdout, "25600\n");
  });

  it("a C program includes a header from files; files are present at run time too", async (t) => {
    if (!requireKernel(t)) return;
    const code = '#include <stdio.h>\n#include "util.h"\nint main(void) { FILE *f = fopen("data.txt", "r"); int x; fscanf(f, "%d", &x); printf("%d\\n", twice(x)); }';
    const files = [
      { path: "util.h", content: "static int twice(int x) { return 2 * x; }\n" },
      { path: "data.txt", content: new TextEncoder().encode("21\n") },
    ];
    const outcome = await run({ language: "c", code, files });
    assert.equal(outcome.result.verdict, "AC", outcome.result.stderr);
    assert.equal(outcome.result.stdout, "42\n");
    const changed = await run({ language: "c", code, files: [{ path: "util.h", content: "static int twice(int x) { return 3 * x; }\n" }, files[1]!] });
    assert.equal(changed.compileCacheHit, false, "the compile cache key covers the files");
    assert.equal(changed.result.stdout, "63\n");
  });

  it("files the language's own way: a Java class, a Rust module, a Go file of package main", async (t) => {
    if (!requireKernel(t)) return;
    const java = await run({ language: "java", code: "public class Main { public static void main(String[] a) { System.out.println(Helper.f()); } }", files: [{ path: "Helper.java", content: "class Helper { static int f() { return 5; } }" }] });
    assert.equal(java.result.stdout, "5\n", java.result.stderr);
    const rust = await run({ language: "rust", code: "mod util;\nfn main() { println!(\"{}\", util::f()); }", files: [{ path: "util.rs", content: "pub fn f() -> i32 { 6 }" }] });
    assert.equal(rust.result.stdout, "6\n", rust.result.stderr);
    const go = await run({ language: "go", code: 'package main\nimport "fmt"\nfunc main() { fmt.Println(f()) }', files: [{ path: "util.go", content: "package main\nfunc f() int { return 8 }" }] });
    assert.equal(go.result.stdout, "8\n", go.result.stderr);
  });

  it("a Python program imports a module from files", async (t) => {
    if (!requireKernel(t)) return;
    const outcome = await run({ language: "python", code: "import helper\nprint(helper.VALUE)", files: [{ path: "helper.py", content: "VALUE = 'from helper'\n" }] });
    assert.equal(outcome.result.stdout, "from helper\n", outcome.result.stderr);
  });

  it("args reach the program (Python, C, Java)", async (t) => {
    if (!requireKernel(t)) return;
    const args = ["one", "two words", "", "--flag=ü"];
    const python = await run({ language: "python", code: "import sys, json\nprint(json.dumps(sys.argv[1:]))", args });
    assert.deepEqual(JSON.parse(python.result.stdout), args);
    const c = await run({ language: "c", code: '#include <stdio.h>\nint main(int argc, char **argv) { for (int i = 1; i < argc; i++) printf("[%s]", argv[i]); }', args });
    assert.equal(c.result.stdout, "[one][two words][][--flag=ü]");
    const java = await run({ language: "java", code: "public class Args { public static void main(String[] a) { System.out.print(String.join(\"|\", a)); } }", args });
    assert.equal(java.result.stdout, "one|two words||--flag=ü", java.result.stderr);
  });

  it("compiler options reach the compiler and are part of the compile cache key", async (t) => {
    if (!requireKernel(t)) return;
    const code = '#include <stdio.h>\nint main(void) { printf("%d\\n", VALUE); }';
    const seven = await run({ language: "c", code, compilerOptions: ["-DVALUE=7", "-O0"] });
    assert.equal(seven.result.stdout, "7\n", seven.result.stderr);
    const eight = await run({ language: "c", code, compilerOptions: ["-DVALUE=8", "-O0"] });
    assert.equal(eight.result.stdout, "8\n");
    const strict = await run({ language: "c", code: "int main(void) { int unused; return 0; }", compilerOptions: ["-Wall", "-Werror"] });
    assert.equal(strict.result.verdict, "RE");
    assert.match(strict.result.stderr, /unused/);
    const rust = await run({ language: "rust", code: 'fn main() { let r#async = 1; println!("{}", r#async); }', compilerOptions: ["--edition=2018", "-C opt-level=1"] });
    assert.equal(rust.result.stdout, "1\n", rust.result.stderr);
  });

  it("Java: `public class HelloWorld` runs; a main in a non-public class is found", async (t) => {
    if (!requireKernel(t)) return;
    const hello = await run({ language: "java", code: 'public class HelloWorld {\n  public static void main(String[] args) { System.out.println("hello"); }\n}' });
    assert.equal(hello.result.verdict, "AC", hello.result.stderr);
    assert.equal(hello.result.stdout, "hello\n");
    const helperFirst = await run({ language: "java", code: 'class Helper { static int f() { return 4; } }\nclass Solution { public static void main(String[] a) { System.out.println(Helper.f()); } }' });
    assert.equal(helperFirst.result.stdout, "4\n", helperFirst.result.stderr);
  });

  it("all 256 byte values go through stdin bytes and come back as raw stdout bytes", async (t) => {
    if (!requireKernel(t)) return;
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const outcome = await run({ language: "python", code: "import sys\nsys.stdout.buffer.write(sys.stdin.buffer.read())", stdin: bytes });
    assert.equal(outcome.result.verdict, "AC");
    assert.deepEqual(new Uint8Array(outcome.stdoutBytes!), bytes);
  });

  // Needs the sandbox's output tap (RunSpec.onOutput, branch i14-sandbox): until that merges the
  // sandbox never calls it and this stays a todo.
  it("output events: their concatenation per stream equals the captured output", async (t) => {
    if (!requireKernel(t)) return;
    const chunks: { stream: string; text: string; test: number }[] = [];
    const outcome = await run({
      language: "python",
      code: "import sys\nprint('out', sys.stdin.read())\nprint('err', file=sys.stderr)",
      tests: [{ name: "a", stdin: "1" }, { name: "b", stdin: "2" }],
      onOutput: (stream, data, test) => chunks.push({ stream, text: new TextDecoder().decode(data), test }),
    });
    for (const [index, test] of outcome.tests!.entries()) {
      const of = (stream: string) => chunks.filter((c) => c.test === index && c.stream === stream).map((c) => c.text).join("");
      assert.equal(of("stdout"), test.result.stdout);
      assert.equal(of("stderr"), test.result.stderr);
    }
  });
});

describe("files in subdirectories", () => {
  // Last in the file: paths with subdirectories need the sandbox's nested copy-in (branch i14-sandbox); before it
  // merges the launcher refuses them (IE, and the node goes not-ready until its self-check).
  it("files in subdirectories: a C++ header under inc/, a JavaScript module under lib/", async (t) => {
    if (!requireKernel(t)) return;
    const cpp = await run({ language: "cpp", code: '#include "inc/u.hpp"\n#include <cstdio>\nint main() { std::printf("%d\\n", U); }', files: [{ path: "inc/u.hpp", content: "#define U 9\n" }] });
    assert.equal(cpp.result.stdout, "9\n", cpp.result.error_message ?? cpp.result.stderr);
    const js = await run({ language: "javascript", code: "console.log(require('./lib/m.js').v)", files: [{ path: "lib/m.js", content: "module.exports = { v: 7 }" }] });
    assert.equal(js.result.stdout, "7\n", js.result.error_message ?? js.result.stderr);
  });
});
