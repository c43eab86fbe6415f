// Every language on the real kernel: hello world, stdin, runtime and compile errors, time and
// memory limits, aliases, the compile cache, and what a compiled program can (not) see.
// Cases run concurrently (the engine has 2 slots) to keep the file's wall time modest.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { ExecuteOutcome } from "../../fleet/src/engine.ts";
import type { Limits } from "../../fleet/src/sandbox/run-spec.ts";
import { requireKernel } from "../helpers.ts";
import { useEngine } from "../kernel-fixtures.ts";

const MiB = 1024 * 1024;
const { engine, stateDir } = useEngine("codecell-lang-");

const run = (language: string, code: string, stdin = "", limits: Partial<Limits> = {}): Promise<ExecuteOutcome> =>
  engine.execute({ language, code, stdin, limits });

interface Programs {
  aliases: string[];
  hello: string;
  /** Reads whitespace-separated integers from stdin, prints their sum. */
  sum: string;
  /** Exits non-zero by the language's own error path. */
  runtimeError: string;
  compileError?: string;
  spin: string;
  /** Allocates and touches memory without bound. */
  hog: string;
  /** What the hog gets: the cgroup OOM killer (MLE), or the runtime's own heap limit (RE). */
  hogVerdict: "MLE" | "RE";
  hogStderr?: RegExp;
  /** Prints the Threads: line of /proc/self/status after starting up (runtimes with threads). */
  threads?: string;
}

const PROGRAMS: Record<string, Programs> = {
  python: {
    aliases: ["py"],
    hello: 'print("hello, world")',
    sum: "import sys\nprint(sum(map(int, sys.stdin.read().split())))",
    runtimeError: 'raise ValueError("boom")',
    spin: "while True: pass",
    hog: "hog = []\nwhile True: hog.append(bytearray(b'x' * (1 << 20)))",
    hogVerdict: "MLE",
  },
  c: {
    aliases: [],
    hello: '#include <stdio.h>\nint main(void) { printf("hello, world\\n"); return 0; }',
    sum: '#include <stdio.h>\nint main(void) { long long x, s = 0; while (scanf("%lld", &x) == 1) s += x; printf("%lld\\n", s); }',
    runtimeError: '#include <stdio.h>\n#include <math.h>\nint main(void) { fprintf(stderr, "boom %.0f\\n", sqrt(9.0)); return 3; }',
    compileError: "int main(void) { return undeclared_variable; }",
    spin: "int main(void) { volatile unsigned long i = 0; for (;;) i++; }",
    hog: "#include <stdlib.h>\n#include <string.h>\nint main(void) { for (;;) { char *p = malloc(1 << 20); memset(p, 1, 1 << 20); } }",
    hogVerdict: "MLE",
  },
  cpp: {
    aliases: ["c++", "cxx", "cc"],
    hello: '#include <iostream>\nint main() { std::cout << "hello, world" << std::endl; }',
    sum: "#include <iostream>\n#include <ranges>\nint main() { long long x, s = 0; while (std::cin >> x) s += x; std::cout << s << '\\n'; }",
    runtimeError: '#include <stdexcept>\nint main() { throw std::runtime_error("boom"); }',
    compileError: "int main() { std::vector<int> v; }",
    spin: "int main() { volatile unsigned long i = 0; for (;;) i++; }",
    hog: "#include <vector>\nint main() { std::vector<std::vector<char>> hog; for (;;) hog.emplace_back(1 << 20, 'x'); }",
    hogVerdict: "MLE",
  },
  java: {
    aliases: [],
    hello: 'public class Main { public static void main(String[] args) { System.out.println("hello, world"); } }',
    sum: "import java.util.*;\npublic class Main { public static void main(String[] a) { Scanner s = new Scanner(System.in); long t = 0; while (s.hasNextLong()) t += s.nextLong(); System.out.println(t); } }",
    runtimeError: 'public class Main { public static void main(String[] a) { throw new IllegalStateException("boom"); } }',
    compileError: 'public class Main { public static void main(String[] a) { int x = "no" } }',
    spin: "public class Main { public static void main(String[] a) { long i = 0; while (true) i++; } }",
    hog: "import java.util.*;\npublic class Main { public static void main(String[] a) { List<byte[]> hog = new ArrayList<>(); while (true) hog.add(new byte[1 << 20]); } }",
    hogVerdict: "RE",
    hogStderr: /OutOfMemoryError/,
    threads:
      'import java.nio.file.*;\npublic class Main { public static void main(String[] a) throws Exception { for (String l : Files.readAllLines(Path.of("/proc/self/status"))) if (l.startsWith("Threads:")) System.out.println(l); } }',
  },
  javascript: {
    aliases: ["js"],
    hello: 'console.log("hello, world")',
    sum: 'const s = require("fs").readFileSync(0, "utf8").split(/\\s+/).filter(Boolean).map(Number).reduce((a, b) => a + b, 0);\nconsole.log(s)',
    runtimeError: 'throw new Error("boom")',
    spin: "for (;;) {}",
    hog: "const hog = []; for (;;) hog.push(new Array(1 << 16).fill({ x: 1 }))",
    hogVerdict: "RE",
    hogStderr: /heap out of memory|heap limit/i,
    threads: 'setTimeout(() => console.log(require("fs").readFileSync("/proc/self/status", "utf8").split("\\n").find((l) => l.startsWith("Threads:"))), 50)',
  },
  typescript: {
    aliases: ["ts"],
    hello: 'const greeting: string = "hello, world";\nconsole.log(greeting)',
    sum: 'import { readFileSync } from "node:fs";\nconst nums: number[] = readFileSync(0, "utf8").split(/\\s+/).filter(Boolean).map(Number);\nenum Op { Add }\nconsole.log(nums.reduce((a: number, b: number) => (Op.Add === 0 ? a + b : a), 0))',
    runtimeError: 'function boom(): never { throw new Error("boom") }\nboom()',
    compileError: "const x: number = ;\nconsole.log(x)",
    spin: "for (;;) {}",
    hog: "const hog: object[][] = []; for (;;) hog.push(new Array(1 << 16).fill({ x: 1 }))",
    hogVerdict: "RE",
    hogStderr: /heap out of memory|heap limit/i,
  },
  go: {
    aliases: [],
    hello: 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello, world") }',
    sum: 'package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n\tr := bufio.NewReader(os.Stdin)\n\tvar s, x int64\n\tfor {\n\t\tif _, err := fmt.Fscan(r, &x); err != nil {\n\t\t\tbreak\n\t\t}\n\t\ts += x\n\t}\n\tfmt.Println(s)\n}',
    runtimeError: 'package main\n\nfunc main() { panic("boom") }',
    compileError: 'package main\n\nfunc main() { x := 1 }',
    spin: "package main\n\nfunc main() { i := 0\n\tfor { i++ } }",
    hog: "package main\n\nfunc main() {\n\tvar hog [][]byte\n\tfor {\n\t\tb := make([]byte, 1<<20)\n\t\tfor i := range b {\n\t\t\tb[i] = 1\n\t\t}\n\t\thog = append(hog, b)\n\t}\n}",
    hogVerdict: "MLE",
    threads:
      'package main\n\nimport (\n\t"fmt"\n\t"os"\n\t"strings"\n)\n\nfunc main() {\n\tb, _ := os.ReadFile("/proc/self/status")\n\tfor _, l := range strings.Split(string(b), "\\n") {\n\t\tif strings.HasPrefix(l, "Threads:") {\n\t\t\tfmt.Println(l)\n\t\t}\n\t}\n}',
  },
  rust: {
    aliases: ["rs"],
    hello: 'fn main() { println!("hello, world"); }',
    sum: "use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); let t: i64 = s.split_whitespace().map(|x| x.parse::<i64>().unwrap()).sum(); println!(\"{}\", t); }",
    runtimeError: 'fn main() { let v: Vec<i32> = Vec::new(); let i = std::env::args().count() + 5; println!("{}", v[i]); }',
    compileError: 'fn main() { let x: i32 = "no"; }',
    spin: "fn main() { let mut i: u64 = 0; loop { i = std::hint::black_box(i + 1); } }",
    hog: "fn main() { let mut hog = Vec::new(); loop { hog.push(vec![1u8; 1 << 20]); } }",
    hogVerdict: "MLE",
  },
  // Judge0's language 89: the code is the `run` script, run with bash (test/languages/multi-file.test.ts has the rest).
  "multi-file": {
    aliases: [],
    hello: 'echo "hello, world"',
    sum: "s=0; for x in $(cat); do s=$((s + x)); done; echo $s",
    runtimeError: "echo boom >&2; exit 3",
    spin: "while :; do :; done",
    hog: "tail /dev/zero",
    hogVerdict: "MLE",
  },
};

describe("languages", { skip: !requireKernelQuiet(), concurrency: true }, () => {
  it("offers every language with detected versions", () => {
    const offered = engine.languages();
    assert.deepEqual([...new Set(offered.map((l) => l.name))].sort(), Object.keys(PROGRAMS).sort());
    for (const { version } of offered) assert.match(version, /\d+\.\d+/);
    // Versions and their selection: test/languages/versions.test.ts.
    assert.deepEqual(offered.filter((l) => l.default).map((l) => l.name).sort(), Object.keys(PROGRAMS).sort());
  });

  for (const [language, p] of Object.entries(PROGRAMS)) {
    describe(language, { concurrency: true }, () => {
      it("hello world, and every alias records the canonical name", async () => {
        const outcome = await run(language, p.hello);
        assert.equal(outcome.language, language);
        assert.equal(outcome.result.verdict, "AC", outcome.result.stderr);
        assert.equal(outcome.result.stdout, "hello, world\n");
        assert.equal(outcome.result.stderr, "");
        for (const alias of p.aliases) {
          const aliased = await run(alias, p.hello);
          assert.equal(aliased.language, language, alias);
          assert.equal(aliased.result.stdout, "hello, world\n", alias);
        }
        // The documented limits are exact; the edge validates them the same way.
        await assert.rejects(run(language.toUpperCase(), p.hello), /unsupported language/);
      });

      it("sums stdin", async () => {
        const numbers = Array.from({ length: 2000 }, (_, i) => i * 7 - 3000);
        const { result } = await run(language, p.sum, numbers.join(" ") + "\n");
        assert.equal(result.verdict, "AC", result.stderr);
        assert.equal(result.stdout.trim(), String(numbers.reduce((a, b) => a + b, 0)));
      });

      it("runtime error is RE with the runtime's message", async () => {
        const { result } = await run(language, p.runtimeError);
        assert.equal(result.verdict, "RE", result.stderr);
        assert.notEqual(result.evidence.verdict_cause, "compile_error");
        assert.ok(result.exit_code !== 0, `exit ${result.exit_code} signal ${result.signal}`);
        assert.match(result.stderr, /boom|index out of bounds/);
      });

      if (p.compileError) {
        it("compile error is RE / compile_error with the diagnostics", async () => {
          const outcome = await run(language, p.compileError!);
          const { result } = outcome;
          assert.equal(result.verdict, "RE");
          assert.equal(result.evidence.verdict_cause, "compile_error");
          assert.match(result.error_message ?? "", /compilation failed/);
          assert.match(result.stderr, /error|declared (and|but) not used|undefined|expected/i);
          assert.equal(result.stdout, "");
          assert.equal(outcome.compileCacheHit, false);
        });
      }

      it("time limit: TLE at the wall limit", async () => {
        const { result } = await run(language, p.spin, "", { wallTimeMs: 1500 });
        assert.equal(result.verdict, "TLE", `${result.verdict} ${result.stderr}`);
        assert.ok(result.evidence.judge_actions.includes("sigkill_on_wall_timeout"));
      });

      it(`memory limit: ${p.hogVerdict} under the default 256 MiB`, async () => {
        const { result } = await run(language, p.hog);
        assert.equal(result.verdict, p.hogVerdict, `${result.verdict} ${result.evidence.verdict_cause} ${result.stderr.slice(0, 500)}`);
        if (p.hogVerdict === "MLE") assert.ok(result.evidence.cgroup.oom_kill_events > 0);
        else assert.equal(result.evidence.cgroup.oom_kill_events, 0, "the runtime's heap limit comes before the cgroup's");
        if (p.hogStderr) assert.match(result.stderr, p.hogStderr);
        // The runtimes' own caps keep them under the cgroup limit; the cgroup's peak may overshoot by a few pages.
        if (p.hogVerdict === "RE") assert.ok(result.memory_peak_bytes < 256 * MiB, `${result.memory_peak_bytes}`);
        else assert.ok(result.memory_peak_bytes <= 264 * MiB, `${result.memory_peak_bytes}`);
      });

      if (p.threads) {
        it("the runtime starts within the default limits (threads count as pids)", async () => {
          const { result } = await run(language, p.threads!);
          assert.equal(result.verdict, "AC", result.stderr);
          const threads = Number(/Threads:\s*(\d+)/.exec(result.stdout)?.[1]);
          assert.ok(threads > 0 && threads <= 24, `${threads} threads`);
          assert.ok(result.memory_peak_bytes < 128 * MiB, `${result.memory_peak_bytes} bytes`);
        });
      }
    });
  }

  it("typescript: type errors are not compile errors (type stripping, no type check)", async () => {
    const { result } = await run("typescript", 'const n: number = "not a number" as unknown as number;\nconst s: string = 42 as any;\nconsole.log(typeof n, typeof s)');
    assert.equal(result.verdict, "AC", result.stderr);
    assert.equal(result.stdout, "string number\n");
  });

  it("java: the public class may have any name, in a package too", async () => {
    const solution = await run("java", "import java.io.*;\n/* public class Decoy {} */\npublic final class Solution {\n  public static void main(String[] a) throws IOException {\n    System.out.println(new BufferedReader(new InputStreamReader(System.in)).readLine().toUpperCase());\n  }\n}\nclass Helper {}", "abc\n");
    assert.equal(solution.result.verdict, "AC", solution.result.stderr);
    assert.equal(solution.result.stdout, "ABC\n");
    const packaged = await run("java", 'package contest.a;\npublic class Answer { public static void main(String[] a) { System.out.println(Answer.class.getName()); } }');
    assert.equal(packaged.result.verdict, "AC", packaged.result.stderr);
    assert.equal(packaged.result.stdout, "contest.a.Answer\n");
  });

  it("compile cache: miss, then hit; a changed source misses", async () => {
    const nonce = randomUUID();
    const code = `#include <stdio.h>\n/* ${nonce} */\nint main(void) { puts("cached"); }`;
    const first = await run("c", code);
    assert.equal(first.compileCacheHit, false);
    assert.equal(first.result.stdout, "cached\n");
    const second = await run("c", code, "", { wallTimeMs: 5000 });
    assert.equal(second.compileCacheHit, true);
    assert.equal(second.result.verdict, "AC");
    assert.equal(second.result.stdout, "cached\n");
    const changed = await run("c", `${code}\n`);
    assert.equal(changed.compileCacheHit, false);
    // Interpreted languages never use the cache.
    assert.equal((await run("python", "print(1)")).compileCacheHit, false);
    // Artifacts are on the node's disk under stateDir, named by their content address.
    const entries = readdirSync(join(stateDir, "compile-cache"));
    assert.ok(entries.some((name) => /^[0-9a-f]{64}$/.test(name)));
  });

  it("a compiled program cannot see or write the cache, the compilers' homes or the project tree", async () => {
    const cacheDir = join(stateDir, "compile-cache");
    const probes = [cacheDir, stateDir, "/root/.rustup", "/root/.cargo", "/root", join(import.meta.dirname, "..", "..")];
    const code = `#include <stdio.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <string.h>
int main(int argc, char **argv) {
  const char *probes[] = { ${probes.map((p) => JSON.stringify(p)).join(", ")} };
  for (unsigned i = 0; i < sizeof probes / sizeof *probes; i++) {
    DIR *d = opendir(probes[i]);
    printf("%s %s\\n", probes[i], d ? "VISIBLE" : "hidden");
    if (d) closedir(d);
  }
  int fd = open("/opt/program/main", O_WRONLY);
  printf("write artifact: %s\\n", fd >= 0 ? "OPEN" : strerror(errno));
  fd = open("/opt/rust/bin/rustc", O_WRONLY);
  printf("write rustc: %s\\n", fd >= 0 ? "OPEN" : strerror(errno));
  fd = open("/opt/program/evil", O_WRONLY | O_CREAT, 0755);
  printf("create next to artifact: %s\\n", fd >= 0 ? "OPEN" : strerror(errno));
  return 0;
}`;
    const { result } = await run("c", code);
    assert.equal(result.verdict, "AC", result.stderr);
    assert.doesNotMatch(result.stdout, /VISIBLE|OPEN/, result.stdout);
    // The rust toolchain is visible only at its neutral path, read-only.
    const rust = await run("rust", 'fn main() { for p in ["/root/.rustup", "/root/.cargo", "/root"] { println!("{} {}", p, std::fs::read_dir(p).is_ok()); } println!("{}", std::fs::write("/opt/rust/x", "x").is_ok()); }');
    assert.equal(rust.result.verdict, "AC", rust.result.stderr);
    assert.equal(rust.result.stdout, "/root/.rustup false\n/root/.cargo false\n/root false\nfalse\n");
  });

  it("go: nothing a run writes (build cache included) is there for the next run", async () => {
    const write = await run("go", 'package main\n\nimport "os"\n\nfunc main() { os.MkdirAll("/tmp/go-cache/planted", 0o777); os.WriteFile("/tmp/go-cache/planted/x", []byte("x"), 0o666); os.WriteFile("/box/planted", []byte("x"), 0o666) }');
    assert.equal(write.result.verdict, "AC", write.result.stderr);
    const read = await run("go", 'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n\t_, a := os.Stat("/tmp/go-cache/planted/x")\n\t_, b := os.Stat("/box/planted")\n\tfmt.Println(os.IsNotExist(a), os.IsNotExist(b))\n}');
    assert.equal(read.result.verdict, "AC", read.result.stderr);
    assert.equal(read.result.stdout, "true true\n");
  });
});

function requireKernelQuiet(): boolean {
  try {
    return requireKernel();
  } catch {
    return true; // let before() throw the CI failure
  }
}
