// The judge features of issue 14 end to end through the public HTTP API: the real Worker (workerd,
// HTTPS), a real fleet node and the real kernel sandbox. Each case is one `?wait=true` request
// and asserts on the record it answers. Cases already covered end to end elsewhere (base64 round
// trip, stop_on_first_failure, plan caps, 400s for bad fields: api-v11-fields.test.ts; SSE: events.test.ts;
// a named go version: runtimes.test.ts) are not repeated.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { Client, admin, cleanup, startEdge, startFleet } from "./harness.ts";
import type { Edge, Fleet, Res } from "./harness.ts";

let fleet: Fleet;
let edge: Edge;
let c: Client;

const MiB = 1024 * 1024;
/** A Python program that prints its stdin unchanged (no newline added). */
const ECHO = "import sys\nsys.stdout.write(sys.stdin.read())";
/** Touches every page of 100 MiB through a volatile pointer: the compiler cannot drop the allocation. */
const HOG_100_MIB =
  "#include <stdlib.h>\n#include <stdio.h>\n#include <string.h>\nint main(void) { volatile char *p = malloc(100 << 20); if (!p) return 3; memset((char *)p, 1, 100 << 20); long sum = 0; for (long i = 0; i < (100 << 20); i += 4096) sum += p[i]; printf(\"%ld\\n\", sum); }";

before(async () => {
  fleet = await startFleet({ env: { FLEET_SLOTS: "2" } });
  edge = await startEdge({ vars: { SYNC_HOLD_MS: "60000" } });
  const ops = admin(edge);
  const reg = await ops.registerNode(fleet);
  assert.equal(reg.status, 201, reg.text);
  // One key for the whole file: a plan whose rate leaves room for every request here.
  assert.equal((await ops.call("PUT", "/admin/plans/judge-api", { rate_per_minute: 1000 })).status, 201);
  const p = await ops.call("POST", "/admin/projects", { name: "judge-api" });
  const k = await ops.call("POST", `/admin/projects/${p.json.id}/keys`, { name: "k", plan: "judge-api" });
  assert.equal(k.status, 201, k.text);
  c = new Client(edge.base, k.json.key);
});

after(async () => {
  await edge?.stop();
  await fleet?.stop();
  if (edge) cleanup(edge.persistDir);
  if (fleet) cleanup(fleet.stateDir);
});

async function judged(body: Record<string, unknown>): Promise<Res> {
  const r = await c.submit(body, { wait: true });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.job_status, "completed", r.text);
  assert.equal(r.json.schema_version, "1.1", r.text);
  assert.equal(r.json.evidence.isolation_mode, "strict", "the real sandbox ran it");
  return r;
}

describe("a compile error with tests", () => {
  it("is one RE record with cause compile_error, the diagnostics in stderr, and no test run", async () => {
    const r = await judged({
      language: "c", code: "int main(void) { return undeclared_name; }",
      tests: [{ stdin: "", expected_output: "" }, { name: "second", stdin: "x", expected_output: "" }],
    });
    assert.equal(r.json.verdict, "RE");
    assert.equal(r.json.evidence.verdict_cause, "compile_error");
    assert.deepEqual(r.json.tests, []);
    assert.match(r.json.stderr, /undeclared_name/);
    assert.equal(r.json.stdout, "");
  });
});

describe("compare modes through the API", () => {
  // [compare, float_epsilon, actual (the program's output), expected, verdict, the mismatch's position]
  type Position = { line: number; column?: number; token?: number };
  const cases: [string, number | undefined, string, string, "AC" | "WA", Position?][] = [
    ["exact", undefined, "1\n2\n", "1\n2\n", "AC"],
    ["exact", undefined, "1\n2\n", "1\n2", "WA", { line: 3 }],
    ["exact", undefined, "1\n2x\n", "1\n2\n", "WA", { line: 2, column: 2 }],
    ["lines", undefined, "1  \n2\t\r\n\n\n", "1\n2", "AC"],
    ["lines", undefined, "1\n2\n3 4\n", "1\n2\n3 5\n", "WA", { line: 3, column: 3 }],
    ["lines", undefined, "1\n 2\n", "1\n2\n", "WA", { line: 2, column: 1 }],
    ["tokens", undefined, "1   2\n\n 3\t4", "1 2 3 4\n", "AC"],
    ["tokens", undefined, "1 2\n3 5\n", "1 2 3 4\n", "WA", { line: 2, token: 4 }],
    ["float", undefined, "1.000000001\n", "1\n", "AC"],
    ["float", undefined, "1e-9\n", "0\n", "AC"],
    ["float", undefined, "-0 -0.0\n", "0 0\n", "AC"],
    ["float", undefined, "nan NaN\n", "nan nan\n", "AC"],
    ["float", undefined, "0.5 1.001\n", "0.5 1\n", "WA", { line: 1, token: 2 }],
    ["float", undefined, "nan\n", "0\n", "WA", { line: 1, token: 1 }],
    ["float", 0.01, "0.5 1.001\n", "0.5 1\n", "AC"],
    ["identical", undefined, "1\n2\n", "1\n2\n", "AC"],
    ["identical", undefined, "1\n2\n", "1\n2", "WA", { line: 2, column: 2 }],
    ["unordered", undefined, "b\na \nc\n", "a\nb\nc", "AC"],
    ["unordered", undefined, "a\nz\n", "a\nb\n", "WA", { line: 2 }],
    ["float_abs", 1e-4, "0.33331\n", "0.3333\n", "AC"],
    ["float_abs", 1e-4, "333333.33\n", "333333.3\n", "WA", { line: 1, token: 1 }],
    ["float_rel", 1e-4, "333333.33\n", "333333.3\n", "AC"],
    ["float_rel", 1e-4, "0.00001\n", "0\n", "WA", { line: 1, token: 1 }],
    ["tokens_ci", undefined, "YES  no\n", "yes NO", "AC"],
    ["tokens_ci", undefined, "\u00c9\n", "\u00e9\n", "WA", { line: 1, token: 1 }],
  ];
  for (const [compare, epsilon, actual, expected, verdict, position] of cases) {
    const label = `${compare}${epsilon ? ` ε=${epsilon}` : ""}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)} is ${verdict}`;
    it(label, async () => {
      const r = await judged({
        language: "py", code: ECHO, stdin: actual, expected_output: expected, compare, ...(epsilon ? { float_epsilon: epsilon } : {}),
      });
      assert.equal(r.json.verdict, verdict, r.text);
      assert.equal(r.json.stdout, actual, "the output is the program's, unchanged");
      assert.equal(r.json.exit_code, 0);
      if (verdict === "AC") {
        assert.equal(r.json.evidence.verdict_cause, "normal_exit");
        assert.equal(r.json.evidence.mismatch, undefined, r.text);
        return;
      }
      assert.equal(r.json.evidence.verdict_cause, "output_mismatch");
      assert.equal(r.json.evidence.verdict_actor, "judge");
      const m = r.json.evidence.mismatch;
      assert.ok(m, r.text);
      assert.equal(m.line, position!.line, JSON.stringify(m));
      if (position!.column !== undefined) assert.equal(m.column, position!.column, JSON.stringify(m));
      if (position!.token !== undefined) assert.equal(m.token, position!.token, JSON.stringify(m));
      assert.match(m.message, /^wrong answer/);
      assert.equal(r.json.error_message, m.message);
    });
  }
});

describe("per-request limits", () => {
  it("memory_mb 64 makes a 100 MiB allocation MLE; evidence.limits shows the 64 MiB", async () => {
    const r = await judged({ language: "c", code: HOG_100_MIB, limits: { memory_mb: 64 } });
    assert.equal(r.json.verdict, "MLE", r.text);
    assert.equal(r.json.evidence.verdict_cause, "oom_kill");
    assert.equal(r.json.evidence.cgroup.memory_limit_bytes, 64 * MiB);
    assert.equal(r.json.evidence.limits.memory_bytes, 64 * MiB);
  });

  it("the same program without limits is AC under the default 256 MiB", async () => {
    const r = await c.submit({ language: "c", code: HOG_100_MIB }, { wait: true });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.verdict, "AC", r.text);
    assert.equal(r.json.stdout, "25600\n");
    assert.equal(r.json.evidence.cgroup.memory_limit_bytes, 256 * MiB);
  });

  it("cpu_time_ms 300 turns a busy loop into TLE with cause cpu_timeout", async () => {
    const r = await judged({ language: "c", code: "int main(void) { volatile unsigned long n = 0; for (;;) n++; }", limits: { cpu_time_ms: 300 } });
    assert.equal(r.json.verdict, "TLE", r.text);
    assert.equal(r.json.evidence.verdict_cause, "cpu_timeout");
    assert.equal(r.json.evidence.limits.cpu_time_ms, 300);
  });

  it("evidence.limits on a 1.1 record shows every applied per-request limit, the rest at the defaults", async () => {
    const r = await judged({ language: "py", code: "print(1)", limits: { wall_time_ms: 4000, cpu_time_ms: 3000, memory_mb: 96, processes: 12, output_kb: 32 } });
    assert.equal(r.json.verdict, "AC", r.text);
    assert.deepEqual(r.json.evidence.limits, { wall_time_ms: 4000, cpu_time_ms: 3000, memory_bytes: 96 * MiB, processes: 12, output_bytes: 32 * 1024 });
    assert.equal(r.json.evidence.cgroup.memory_limit_bytes, 96 * MiB);
    assert.equal(r.json.evidence.cgroup.process_limit, 12);
  });
});

describe("sources, files, args and compiler options", () => {
  it("a Java file whose public class is HelloWorld runs", async () => {
    const r = await judged({
      language: "java", expected_output: "hello from HelloWorld\n",
      code: 'public class HelloWorld {\n  public static void main(String[] args) { System.out.println("hello from HelloWorld"); }\n}\n',
    });
    assert.equal(r.json.verdict, "AC", r.text);
    assert.equal(r.json.stdout, "hello from HelloWorld\n");
  });

  it("a C program with headers in files (one under inc/) compiles and runs", async () => {
    const r = await judged({
      language: "c",
      code: '#include <stdio.h>\n#include "util.h"\n#include "inc/util2.h"\nint main(void) { printf("%d\\n", twice(plus_one(20))); }\n',
      files: [
        { path: "util.h", content: "static int twice(int x) { return 2 * x; }\n" },
        { path: "inc/util2.h", content: "static int plus_one(int x) { return x + 1; }\n" },
      ],
    });
    assert.equal(r.json.verdict, "AC", r.text);
    assert.equal(r.json.stdout, "42\n");
  });

  it("args reach the program as argv[1..]", async () => {
    const args = ["one", "two words", "", "--flag=ü"];
    const r = await judged({ language: "py", code: "import sys, json\nprint(json.dumps(sys.argv[1:]))", args });
    assert.equal(r.json.verdict, "AC", r.text);
    assert.deepEqual(JSON.parse(r.json.stdout), args);
  });

  it("a compiler option off the allow-list is a 400 naming it; nothing runs", async () => {
    const r = await c.submit({ language: "c", code: "int main(void) { return 0; }", compiler_options: ["-O2", "-fplugin=/tmp/evil.so"] }, { wait: true });
    assert.equal(r.status, 400, r.text);
    assert.match(String(r.headers["content-type"]), /^application\/json/);
    assert.equal(r.json.error, "compiler_options[1] is not allowed", r.text);
    assert.match(r.json.message, /'-fplugin=\/tmp\/evil\.so' is not an allowed compiler option for c/, r.text);
    assert.equal(r.json.id, undefined, "no submission was made");
  });

  it("allowed compiler options reach the compiler: -O2, -O0 and -DNAME=<value>", async () => {
    const code = '#include <stdio.h>\nint main(void) {\n#ifdef __OPTIMIZE__\n  printf("optimised ");\n#endif\n  printf("%d\\n", NAME);\n}\n';
    const r = await judged({ language: "c", code, compiler_options: ["-O2", "-DNAME=1"] });
    assert.equal(r.json.verdict, "AC", r.text);
    assert.equal(r.json.stdout, "optimised 1\n");
    const unoptimised = await judged({ language: "c", code, compiler_options: ["-O0", "-DNAME=7"] });
    assert.equal(unoptimised.json.verdict, "AC", unoptimised.text);
    assert.equal(unoptimised.json.stdout, "7\n", "-O0 comes after the default -O2 and wins; the define's value is the one given");
  });
});

describe("every version GET /api/runtimes lists", () => {
  const HELLO: Record<string, string> = {
    c: '#include <stdio.h>\nint main(void) { puts("hello"); }\n',
    cpp: '#include <iostream>\nint main() { std::cout << "hello\\n"; }\n',
    go: 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n',
    java: 'public class Main { public static void main(String[] a) { System.out.println("hello"); } }\n',
    javascript: 'console.log("hello");\n',
    python: 'print("hello")\n',
    rust: 'fn main() { println!("hello"); }\n',
    typescript: 'const greeting: string = "hello";\nconsole.log(greeting);\n',
    "multi-file": "echo hello\n",
  };

  it("runs hello world with `version`, and the record names that version", async (t) => {
    const r = await c.call("GET", "/api/runtimes");
    assert.equal(r.status, 200, r.text);
    const runtimes = r.json as { language: string; version: string }[];
    assert.ok(runtimes.length >= Object.keys(HELLO).length, r.text);
    const ran: string[] = [];
    for (const { language, version } of runtimes) {
      const code = HELLO[language];
      assert.ok(code, `no hello world for ${language}: a language was added; add it here`);
      const run = await judged({ language, version, code });
      assert.equal(run.json.verdict, "AC", `${language} ${version}: ${run.text}`);
      assert.equal(run.json.stdout, "hello\n", `${language} ${version}`);
      assert.equal(run.json.version, version, `${language} ${version}`);
      assert.equal(run.json.language, language);
      ran.push(`${language} ${version}`);
    }
    assert.equal(ran.length, runtimes.length);
    t.diagnostic(`ran: ${ran.join(", ")}`);
  });
});
