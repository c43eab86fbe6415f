// Readiness never depends on what a submission is: for every language, valid-but-odd programs
// (a library instead of a program, an empty or BOM-prefixed source, non-ASCII and 500-character
// names, a program that deletes or chmods its own executable, overwrites its work dir, or closes
// its output first) each get a verdict with a clear message, the node stays ready, and the next
// ordinary submission is AC. The table of outcomes is printed for the record.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { Engine } from "../../fleet/src/engine.ts";
import { createEngine } from "../../fleet/src/node-engine.ts";
import type { Verdict } from "../../fleet/src/sandbox/types.ts";
import { requireKernel, tempStateDir } from "../helpers.ts";

let engine: Engine;
let stateDir: string;

before(async () => {
  if (!requireKernel()) return;
  stateDir = tempStateDir("codecell-odd-");
  engine = await createEngine({ stateDir, slots: 2, cgroupParent: "codecell-test" });
  assert.deepEqual(engine.health().reasons, []);
});
after(async () => {
  await engine?.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

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
