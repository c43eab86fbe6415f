// Readiness never depends on what a submission is: for every language, valid-but-odd programs
// (a library instead of a program, an empty or BOM-prefixed source, non-ASCII and 500-character
// names, a program that deletes or chmods its own executable, overwrites its work dir, or closes
// its output first) each get a verdict with a clear message, the node stays ready, and the next
// ordinary submission is AC. So do requests whose content does not fit what the language puts in
// /box: compiled programs above the compile cache's per-artifact cap or above the most a program
// may be, files that fill the work dir, names too long or taken by the language's own files. The
// table of outcomes is printed for the record.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { EngineFile, EngineRequest } from "../../fleet/src/engine.ts";
import type { Verdict } from "../../fleet/src/sandbox/run-spec.ts";
import { requireKernel } from "../helpers.ts";
import { after } from "../hooks.ts";
import { useEngine } from "../kernel-fixtures.ts";

const { engine, stateDir } = useEngine("codecell-odd-");

interface Odd {
  what: string;
  code: string;
  /** Verdicts that make sense for this program. */
  verdicts: Verdict[];
  /** Text the error message (or stderr) must contain, when the verdict is not AC. */
  says?: RegExp;
}

const LONG = "N".repeat(500);
const BOM = "\uFEFF";
const WIPE_WORK_DIR_PY = `import os\nfor n in os.listdir("."):\n    open(n, "wb").write(b"\\x7fELF garbage")\n`;

const ODD: Record<string, { hello: string; odd: Odd[] }> = {
  python: {
    hello: 'print("ok")',
    odd: [
      { what: "a library (definitions only)", code: "def f():\n    return 1\n", verdicts: ["AC"] },
      { what: "whitespace-only source", code: "\n\n", verdicts: ["AC"] },
      { what: "byte-order mark", code: `${BOM}print("ok")`, verdicts: ["AC"] },
      { what: "non-ASCII identifiers", code: 'grüße = "hallo"\nprint(grüße)', verdicts: ["AC"] },
      { what: "500-character name", code: `def ${LONG}():\n    print("ok")\n${LONG}()`, verdicts: ["AC"] },
      { what: "deletes its own source, then execs itself", code: 'import os, sys\nos.remove(sys.argv[0])\nos.execv(sys.executable, [sys.executable, sys.argv[0]])', verdicts: ["RE"], says: /exit code/ },
      { what: "overwrites its work dir", code: WIPE_WORK_DIR_PY, verdicts: ["AC"] },
      { what: "closes stdout and stderr first", code: "import os\nos.close(1)\nos.close(2)\n", verdicts: ["AC", "RE"] },
    ],
  },
  c: {
    hello: '#include <stdio.h>\nint main(void) { puts("ok"); return 0; }',
    odd: [
      { what: "a header only (no main)", code: "int f(void);\n", verdicts: ["RE"], says: /compil/ },
      { what: "whitespace-only source", code: "\n\n", verdicts: ["RE"], says: /compil/ },
      { what: "byte-order mark", code: `${BOM}#include <stdio.h>\nint main(void) { puts("ok"); return 0; }`, verdicts: ["AC"] },
      { what: "non-ASCII identifiers", code: '#include <stdio.h>\nint main(void) { int grüße = 3; printf("%d\\n", grüße); return 0; }', verdicts: ["AC"] },
      { what: "500-character name", code: `#include <stdio.h>\nstatic void ${LONG}(void) { puts("ok"); }\nint main(void) { ${LONG}(); return 0; }`, verdicts: ["AC"] },
      {
        what: "chmods and unlinks its own executable, then execs itself",
        code: '#include <stdio.h>\n#include <sys/stat.h>\n#include <unistd.h>\nint main(int c, char **v) { if (c > 1) return 0; chmod(v[0], 0); unlink(v[0]); char *a[] = { v[0], "again", 0 }; execv(v[0], a); perror("execv"); return 3; }',
        verdicts: ["AC", "RE"],
        says: /exit code/,
      },
      { what: "closes stdout and stderr first", code: "#include <unistd.h>\nint main(void) { close(1); close(2); return 0; }", verdicts: ["AC"] },
    ],
  },
  cpp: {
    hello: '#include <iostream>\nint main() { std::cout << "ok" << std::endl; }',
    odd: [
      { what: "a header only (no main)", code: "int f();\n", verdicts: ["RE"], says: /compil/ },
      { what: "byte-order mark", code: `${BOM}#include <iostream>\nint main() { std::cout << "ok" << std::endl; }`, verdicts: ["AC"] },
      { what: "non-ASCII identifiers", code: '#include <iostream>\nint main() { int grüße = 3; std::cout << grüße << std::endl; }', verdicts: ["AC"] },
      { what: "500-character name", code: `#include <cstdio>\nstruct ${LONG} { void f() { std::puts("ok"); } };\nint main() { ${LONG}().f(); }`, verdicts: ["AC"] },
    ],
  },
  java: {
    hello: 'public class Main { public static void main(String[] a) { System.out.println("ok"); } }',
    odd: [
      { what: "a class without main", code: "public class Lib { static int f() { return 1; } }", verdicts: ["RE"], says: /main|exit code/i },
      { what: "whitespace-only source", code: "\n\n", verdicts: ["RE"] },
      { what: "byte-order mark", code: `${BOM}public class Main { public static void main(String[] a) { System.out.println("ok"); } }`, verdicts: ["AC"] },
      { what: "non-ASCII class name", code: 'public class Grüße { public static void main(String[] a) { System.out.println("ok"); } }', verdicts: ["AC"] },
      { what: "CJK class name", code: 'public class 你好 { public static void main(String[] a) { System.out.println("ok"); } }', verdicts: ["AC"] },
      { what: "500-character class name", code: `public class ${LONG} { public static void main(String[] a) { System.out.println("ok"); } }`, verdicts: ["RE"], says: /too long.*255 bytes/ },
    ],
  },
  javascript: {
    hello: 'console.log("ok")',
    odd: [
      { what: "a module (exports only)", code: "module.exports = { f: () => 1 };", verdicts: ["AC"] },
      { what: "byte-order mark", code: `${BOM}console.log("ok")`, verdicts: ["AC"] },
      { what: "non-ASCII identifiers", code: 'const grüße = "hallo"; console.log(grüße)', verdicts: ["AC"] },
      { what: "deletes its own source", code: 'require("fs").unlinkSync(__filename); console.log("ok")', verdicts: ["AC"] },
      { what: "closes stdout and stderr first", code: 'require("fs").closeSync(1); require("fs").closeSync(2);', verdicts: ["AC", "RE"] },
    ],
  },
  typescript: {
    hello: 'const s: string = "ok"; console.log(s)',
    odd: [
      { what: "types only", code: "type T = { a: number };\nexport {};", verdicts: ["AC"] },
      { what: "byte-order mark", code: `${BOM}console.log("ok")`, verdicts: ["AC"] },
      { what: "non-ASCII identifiers", code: 'const grüße: string = "hallo"; console.log(grüße)', verdicts: ["AC"] },
    ],
  },
  go: {
    hello: 'package main\nimport "fmt"\nfunc main() { fmt.Println("ok") }',
    odd: [
      { what: "a non-main package", code: "package foo\n\nfunc F() int { return 1 }\n", verdicts: ["RE"], says: /no executable.*package `main`/ },
      { what: "whitespace-only source", code: "\n\n", verdicts: ["RE"], says: /compil/ },
      { what: "byte-order mark", code: `${BOM}package main\nimport "fmt"\nfunc main() { fmt.Println("ok") }`, verdicts: ["AC"] },
      { what: "non-ASCII identifiers", code: 'package main\nimport "fmt"\nfunc main() { grüße := "hallo"; fmt.Println(grüße) }', verdicts: ["AC"] },
      {
        what: "removes its own executable, then execs itself",
        code: 'package main\nimport ("fmt"; "os"; "syscall")\nfunc main() { if len(os.Args) > 1 { return }; exe, _ := os.Executable(); os.Remove(exe); os.Chmod(exe, 0); err := syscall.Exec(exe, []string{exe, "again"}, nil); fmt.Println(err); os.Exit(3) }',
        verdicts: ["AC", "RE"],
        says: /exit code/,
      },
    ],
  },
  rust: {
    hello: 'fn main() { println!("ok"); }',
    odd: [
      { what: "a library crate", code: '#![crate_type = "lib"]\npub fn f() -> i32 { 1 }\n', verdicts: ["RE"], says: /no executable.*library crate/ },
      { what: "byte-order mark", code: `${BOM}fn main() { println!("ok"); }`, verdicts: ["AC"] },
      { what: "non-ASCII identifiers", code: 'fn main() { let grüße = "hallo"; println!("{}", grüße); }', verdicts: ["AC"] },
      { what: "500-character name", code: `fn ${LONG.toLowerCase()}() { println!("ok"); }\nfn main() { ${LONG.toLowerCase()}(); }`, verdicts: ["AC"] },
    ],
  },
};

const table: string[] = [];

describe("odd programs never change a node's readiness", { skip: !requireKernel() }, () => {
  after(() => {
    if (table.length > 0) console.log(["| language | program | verdict | cause | message |", "|---|---|---|---|---|", ...table].join("\n"));
  });

  for (const [language, { hello, odd }] of Object.entries(ODD)) {
    it(`${language}: ${odd.length} odd programs, each with a verdict and a clear message; ready throughout`, async () => {
      for (const program of odd) {
        const { result } = await engine.execute({ language, code: program.code, stdin: "" });
        const message = result.error_message ?? "";
        table.push(`| ${language} | ${program.what} | ${result.verdict} | ${result.evidence.verdict_cause} | ${message.replaceAll("|", "\\|").slice(0, 120)} |`);
        assert.ok(program.verdicts.includes(result.verdict), `${program.what}: ${result.verdict} (${message}) ${result.stderr.slice(0, 300)}`);
        assert.notEqual(result.verdict, "IE", program.what);
        if (result.verdict !== "AC") assert.ok(message.length > 0, `${program.what}: no message`);
        if (program.says && result.verdict !== "AC") assert.match(`${message}\n${result.stderr}`, program.says, program.what);
        assert.deepEqual(engine.health().reasons, [], `${program.what} changed readiness`);
        assert.equal(engine.health().ready, true, program.what);
      }
      const next = await engine.execute({ language, code: hello, stdin: "" });
      assert.equal(next.result.verdict, "AC", `${language}: the next ordinary submission`);
      assert.equal(next.result.stdout, "ok\n");
    });
  }
});

const MiB = 1024 * 1024;
const HELLO: Record<string, string> = Object.fromEntries(Object.entries(ODD).map(([language, { hello }]) => [language, hello]));

interface OddRequest extends Odd {
  language: string;
  request?: Partial<EngineRequest>;
  /** The verdict_cause when the verdict is not AC. */
  cause?: string;
  /** stdout + stderr of an AC run. */
  output?: string;
}

const GO_BIG = "package main\nvar big = [80 << 20]byte{1}\nfunc main() { println(big[0]) }";
const GO_BIG_FMT = 'package main\nimport "fmt"\nvar big = [80 << 20]byte{1}\nfunc main() { fmt.Println(big[0] + big[len(big)-1]) }';
const RUST_BIG = 'static BIG: [u8; 100 << 20] = [1; 100 << 20]; fn main() { println!("{}", BIG[12345]); }';
const C_BIG = '#include <stdio.h>\nchar big[100 << 20] = {1};\nint main(int argc, char **argv) { (void)argv; printf("%d\\n", big[argc - 1]); return 0; }';
const file = (path: string, content: EngineFile["content"] = "x\n"): EngineFile => ({ path, content });

/** What a request puts into /box, past what the edge's validation would let through (a node must be safe without it). */
const BOX: OddRequest[] = [
  { what: "go: an 80 MiB array (an artifact above the compile cache's per-artifact cap)", language: "go", code: GO_BIG, verdicts: ["AC"], output: "1\n" },
  {
    what: "go: an 80 MiB array, run once per test",
    language: "go",
    code: GO_BIG_FMT,
    request: { tests: [{ name: "a", stdin: "", expected: "1\n" }, { name: "b", stdin: "", expected: "1\n" }] },
    verdicts: ["AC"],
    output: "1\n",
  },
  // rustc needs about 1.5 GiB to build it (more than the compile memory limit): a compile error.
  { what: "rust: a 100 MiB static", language: "rust", code: RUST_BIG, verdicts: ["AC", "RE"], says: /compil/ },
  { what: "c: a 100 MiB initialised array (above the most a C program may be)", language: "c", code: C_BIG, verdicts: ["RE"], cause: "compile_error", says: /the compiled program is 100\.0 MiB \(\d+ bytes\); at most 64 MiB/ },
  {
    what: "c: a build whose output fills the compile's work dir",
    language: "c",
    code: C_BIG,
    request: { compileLimits: { workDirBytes: 32 * MiB } },
    verdicts: ["RE"],
    cause: "compile_error",
    says: /No space left on device/,
  },
  { what: "go: a 300 MiB array (a build past the compile's file-size limit)", language: "go", code: GO_BIG.replace("80 << 20", "300 << 20"), verdicts: ["RE"], cause: "compile_error", says: /file too large|file size limit/i },
  {
    what: "files that do not fit the run's work dir",
    language: "python",
    code: 'print("ok")',
    request: { files: [file("data.bin", new Uint8Array(MiB))], limits: { workDirBytes: 512 * 1024 } },
    verdicts: ["RE"],
    cause: "work_dir_full",
    says: /do not fit in the work dir.*data\.bin/,
  },
  {
    what: "a 70 MiB file",
    language: "javascript",
    code: 'console.log("ok")',
    request: { files: [file("big.bin", new Uint8Array(70 * MiB))] },
    verdicts: ["RE"],
    cause: "work_dir_full",
    says: /do not fit in the work dir/,
  },
  {
    what: "c: files that do not fit the compile's work dir",
    language: "c",
    code: HELLO.c!,
    request: { files: [file("data.bin", new Uint8Array(MiB))], compileLimits: { workDirBytes: 512 * 1024 } },
    verdicts: ["RE"],
    cause: "work_dir_full",
    says: /do not fit in the work dir/,
  },
  { what: "a 300-byte name", language: "python", code: 'print("ok")', request: { files: [file("x".repeat(300))] }, verdicts: ["RE"], cause: "invalid_file_name", says: /longer than 255 bytes/ },
  {
    what: "a path longer than PATH_MAX",
    language: "python",
    code: 'print("ok")',
    request: { files: [file(Array.from({ length: 20 }, () => "y".repeat(250)).join("/"))] },
    verdicts: ["RE"],
    cause: "invalid_file_name",
    says: /more than 8 levels/,
  },
  { what: "a name the file layer refuses", language: "python", code: 'print("ok")', request: { files: [file("with space.txt")] }, verdicts: ["RE"], cause: "invalid_file_name", says: /not allowed/ },
  { what: "the main source's own name", language: "python", code: 'print("ok")', request: { files: [file("main.py", 'print("not me")')] }, verdicts: ["RE"], cause: "invalid_file_name", says: /main\.py.*main source/ },
  { what: "java: the main source's own name", language: "java", code: HELLO.java!, request: { files: [file("Main.java")] }, verdicts: ["RE"], cause: "invalid_file_name", says: /Main\.java.*main source/ },
  { what: "c: a directory where the main source goes", language: "c", code: HELLO.c!, request: { files: [file("main.c/x.h")] }, verdicts: ["RE"], cause: "invalid_file_name", says: /main\.c.*main source/ },
  { what: "c: the compiled program's name", language: "c", code: HELLO.c!, request: { files: [file("main")] }, verdicts: ["RE"], cause: "invalid_file_name", says: /"main".*compiled program/ },
  { what: "go: a directory where the compiled program goes", language: "go", code: HELLO.go!, request: { files: [file("main/x.txt")] }, verdicts: ["RE"], cause: "invalid_file_name", says: /"main".*compiled program/ },
  { what: "java: the compiled program's name", language: "java", code: HELLO.java!, request: { files: [file("main.jar")] }, verdicts: ["RE"], cause: "invalid_file_name", says: /main\.jar.*compiled program/ },
  { what: "java: the directory javac writes to", language: "java", code: HELLO.java!, request: { files: [file("classes")] }, verdicts: ["RE"], cause: "invalid_file_name", says: /"classes"/ },
  { what: "a file where another needs a directory", language: "python", code: 'print("ok")', request: { files: [file("lib"), file("lib/a.txt")] }, verdicts: ["RE"], cause: "invalid_file_name", says: /"lib".*directory/ },
  { what: "the same path twice", language: "python", code: 'print("ok")', request: { files: [file("a.txt"), file("a.txt")] }, verdicts: ["RE"], cause: "invalid_file_name", says: /"a\.txt".*twice/ },
];

const boxTable: string[] = [];

describe("what a request puts in /box never changes a node's readiness", { skip: !requireKernel() }, () => {
  after(() => {
    if (boxTable.length > 0) console.log(["| language | request | verdict | cause | message |", "|---|---|---|---|---|", ...boxTable].join("\n"));
  });

  for (const odd of BOX) {
    it(`${odd.what}: ${odd.verdicts.join(" or ")}, not IE; ready, and the next run is AC`, async () => {
      const { result, tests } = await engine.execute({ language: odd.language, code: odd.code, stdin: "", ...odd.request });
      const message = result.error_message ?? "";
      boxTable.push(`| ${odd.language} | ${odd.what} | ${result.verdict} | ${result.evidence.verdict_cause} | ${message.replaceAll("|", "\\|").slice(0, 160)} |`);
      assert.notEqual(result.verdict, "IE", `${odd.what}: ${message}`);
      assert.ok(odd.verdicts.includes(result.verdict), `${odd.what}: ${result.verdict} (${result.evidence.verdict_cause}: ${message}) ${result.stderr.slice(0, 300)}`);
      if (result.verdict === "AC") {
        if (odd.output !== undefined) assert.equal(result.stdout + result.stderr, odd.output);
        if (odd.request?.tests) assert.deepEqual(tests?.map((test) => test.result.verdict), odd.request.tests.map(() => "AC"));
      } else {
        assert.ok(message.length > 0, `${odd.what}: no message`);
        if (odd.cause) assert.equal(result.evidence.verdict_cause, odd.cause, message);
        if (odd.says) assert.match(`${message}\n${result.stderr}`, odd.says);
      }
      assert.deepEqual(engine.health().reasons, [], `${odd.what} changed readiness`);
      assert.equal(engine.health().ready, true);
      const staged = readdirSync(join(stateDir, "run"), { recursive: true }).filter((entry) => /(^|\/)artifacts\/./.test(String(entry)));
      assert.deepEqual(staged, [], "a program kept outside the cache is removed after its run");
      const next = await engine.execute({ language: odd.language, code: HELLO[odd.language]!, stdin: "" });
      assert.equal(next.result.verdict, "AC", `${odd.language}: the next ordinary submission (${next.result.error_message})`);
      assert.equal(next.result.stdout, "ok\n");
    });
  }
});
