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
import { MANIFESTS } from "../../languages/index.gen.ts";
import { PROGRAMS as SUITE_PROGRAMS } from "../../languages/programs.gen.ts";
import type { LanguagePrograms } from "../../languages/schema.ts";

const MiB = 1024 * 1024;
const { engine, stateDir } = useEngine("codecell-lang-");

const run = (language: string, code: string, stdin = "", limits: Partial<Limits> = {}): Promise<ExecuteOutcome> =>
  engine.execute({ language, code, stdin, limits });

/** Each language folder's programs (languages/<name>/programs.ts) with its manifest's aliases. */
const PROGRAMS: Record<string, LanguagePrograms & { aliases: string[] }> = Object.fromEntries(
  MANIFESTS.map((manifest) => [manifest.name, { ...SUITE_PROGRAMS[manifest.name]!, aliases: manifest.aliases }]),
);

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
