// Language versions and libraries on the real kernel: every (language, version) the engine lists
// runs hello world on that toolchain and reports its version, each alias selects it, a request
// without a version gets the default, an unknown version is refused, the compile cache keeps
// versions apart, and the curated libraries (numpy) import and compute inside the sandbox.
import assert from "node:assert/strict";
import { existsSync, realpathSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import type { ExecuteOutcome, LanguageInfo } from "../../fleet/src/engine.ts";
import { detectToolchains } from "../../fleet/src/languages/toolchains.ts";
import { requireKernel } from "../helpers.ts";
import { useEngine } from "../kernel-fixtures.ts";

const { engine } = useEngine("codecell-versions-");

const run = (language: string, code: string, version?: string): Promise<ExecuteOutcome> =>
  engine.execute({ language, code, stdin: "", ...(version === undefined ? {} : { version }) });

/** Per language: a hello world that prints the version of the toolchain it was built or run with. */
const REPORTS_VERSION: Record<string, { code: string; printed: (version: string) => string }> = {
  python: { code: 'import sys\nprint("%d.%d.%d" % sys.version_info[:3])', printed: (v) => v },
  c: { code: '#include <stdio.h>\nint main(void) { printf("%d.%d.%d\\n", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__); return 0; }', printed: (v) => v },
  cpp: { code: '#include <cstdio>\nint main() { std::printf("%d.%d.%d\\n", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__); }', printed: (v) => v },
  // The class file's major version says which javac compiled it (JDK N writes N + 44).
  java: {
    code: 'public class Hello { public static void main(String[] a) throws Exception { var in = Hello.class.getResourceAsStream("Hello.class"); in.skip(6); int major = in.read() << 8 | in.read(); System.out.println(System.getProperty("java.version") + " " + (major - 44)); } }',
    printed: (v) => `${v} ${v.split(".")[0]}`,
  },
  javascript: { code: "console.log(process.versions.node)", printed: (v) => v },
  typescript: { code: "const v: string = process.versions.node;\nconsole.log(v)", printed: (v) => v },
  // runtime.Version() is the compiler's own version, linked into the program.
  go: { code: 'package main\n\nimport (\n\t"fmt"\n\t"runtime"\n)\n\nfunc main() { fmt.Println(runtime.Version()) }', printed: (v) => `go${v}` },
  // No way to ask rustc's version from the program: the outcome's version alone.
  rust: { code: 'fn main() { println!("hello, world"); }', printed: () => "hello, world" },
  // The run script's interpreter is the node's bash.
  "multi-file": { code: 'echo "${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}.${BASH_VERSINFO[2]}"', printed: (v) => v },
};

/** Distinct JDK homes with javac under /usr/lib/jvm (the newer JDK comes with the machine, not from Debian 12). */
function hostJdks(): number {
  const homes = new Set<string>();
  for (const name of readdirSync("/usr/lib/jvm")) {
    const javac = join("/usr/lib/jvm", name, "bin", "javac");
    if (existsSync(javac)) homes.add(realpathSync(join("/usr/lib/jvm", name)));
  }
  return homes.size;
}

describe("language versions", { skip: !requireKernel(), concurrency: true }, () => {
  const byLanguage = () => {
    const groups = new Map<string, LanguageInfo[]>();
    for (const info of engine.languages()) groups.set(info.name, [...(groups.get(info.name) ?? []), info]);
    return groups;
  };

  it("lists each language once per version, exactly one default each, and two versions where provisioning installs them", () => {
    const groups = byLanguage();
    assert.deepEqual([...groups.keys()].sort(), Object.keys(REPORTS_VERSION).sort());
    for (const [language, versions] of groups) {
      assert.equal(versions.filter((v) => v.default).length, 1, `${language}: one default`);
      assert.equal(versions[0]!.default, true, `${language}: the default is listed first`);
      assert.equal(new Set(versions.map((v) => v.version)).size, versions.length, `${language}: distinct versions`);
      const names = versions.flatMap((v) => [v.version, ...v.aliases]);
      assert.equal(new Set(names).size, names.length, `${language}: every name selects one version: ${names.join(", ")}`);
      for (const v of versions) {
        assert.match(v.version, /^\d+\.\d+\.\d+$/, `${language} ${v.version}`);
        assert.equal(v.compiled, ["c", "cpp", "java", "typescript", "go", "rust", "multi-file"].includes(language), `${language}: compiled`);
      }
    }
    // scripts/provision.sh installs go 1.23 (backports) and Node 22 (npm) beside the defaults.
    for (const language of ["go", "javascript", "typescript"]) assert.ok(groups.get(language)!.length >= 2, `${language}: ${groups.get(language)!.map((v) => v.version)}`);
    assert.equal(groups.get("go")![0]!.version.split(".").slice(0, 2).join("."), "1.19", "go's default stays Debian's golang-go");
    assert.equal(groups.get("javascript")![0]!.version.split(".")[0], "24", "javascript's default stays Node 24");
    assert.equal(groups.get("java")![0]!.version.split(".")[0], "17", "java's default stays Debian's JDK 17");
    assert.equal(groups.get("java")!.length, hostJdks(), "one java version per JDK on the host");
    assert.deepEqual(groups.get("python")![0]!.libraries, ["numpy"]);
  });

  it("every listed version runs hello world on its own toolchain and reports it; each alias selects it", async () => {
    await Promise.all(
      engine.languages().map(async (info) => {
        const program = REPORTS_VERSION[info.name]!;
        for (const name of [info.version, ...info.aliases]) {
          const outcome = await run(info.name, program.code, name);
          assert.equal(outcome.result.verdict, "AC", `${info.name} ${name}: ${outcome.result.error_message} (${outcome.result.evidence.verdict_cause}, exit ${outcome.result.exit_code}): ${outcome.result.stderr}`);
          assert.equal(outcome.version, info.version, `${info.name} ${name}`);
          assert.equal(outcome.result.stdout, `${program.printed(info.version)}\n`, `${info.name} ${name}`);
        }
      }),
    );
  });

  it("a request without a version gets the default", async () => {
    for (const info of engine.languages().filter((l) => l.default && ["go", "javascript", "java"].includes(l.name))) {
      const outcome = await run(info.name, REPORTS_VERSION[info.name]!.code);
      assert.equal(outcome.version, info.version);
      assert.equal(outcome.result.stdout, `${REPORTS_VERSION[info.name]!.printed(info.version)}\n`);
      assert.deepEqual(await run(info.name, REPORTS_VERSION[info.name]!.code, "").then((o) => o.version), info.version, "empty = default");
    }
  });

  it("an unknown version is refused, naming the versions available", async () => {
    const go = engine.languages().filter((l) => l.name === "go").map((l) => l.version);
    await assert.rejects(run("go", REPORTS_VERSION.go!.code, "1.5"), (error: Error) => {
      assert.equal(error.name, "LanguageRefused");
      assert.equal(error.message, `unknown version "1.5" of go; available: ${go.join(", ")}`);
      return true;
    });
    // Another language's version or alias is not this one's; names are exact.
    await assert.rejects(run("python", REPORTS_VERSION.python!.code, "1.23"), /unknown version "1\.23" of python/);
    await assert.rejects(run("go", REPORTS_VERSION.go!.code, " 1.23"), /unknown version " 1\.23" of go/);
    await assert.rejects(run("javascript", REPORTS_VERSION.javascript!.code, "V24"), /unknown version "V24" of javascript/);
  });

  it("the compile cache keeps versions apart: the same Go source builds once per version", async () => {
    const [older, newer] = engine.languages().filter((l) => l.name === "go");
    const code = `${REPORTS_VERSION.go!.code}\n// cache ${Date.now()}\n`;
    const first = await run("go", code, older!.version);
    assert.equal(first.compileCacheHit, false);
    const other = await run("go", code, newer!.version);
    assert.equal(other.compileCacheHit, false, "another version compiles anew");
    assert.equal(other.result.stdout, `go${newer!.version}\n`);
    const again = await run("go", code, older!.aliases[0]);
    assert.equal(again.compileCacheHit, true, "the same version (by alias) hits");
    assert.equal(again.result.stdout, `go${older!.version}\n`);
  });

  it("a Go without a precompiled standard library compiles against the read-only std cache provisioning built", async () => {
    const go = (await detectToolchains()).get("go")!;
    for (const { toolchain } of go.versions) {
      const goroot = dirname(dirname(toolchain.paths.go!));
      if (existsSync(join(goroot, "pkg", "linux_amd64"))) continue; // Go < 1.20: precompiled in GOROOT
      assert.equal(toolchain.paths.stdCache, "/opt/go-cache", `go ${toolchain.version}`);
      assert.ok(toolchain.binds.some((b) => b.sandboxPath === "/opt/go-cache" && b.hostPath.endsWith(`/go${toolchain.version}/cache`)));
    }
  });

  it("numpy imports offline and computes, from Debian's package", async () => {
    const code = [
      "import numpy as np",
      "a = np.arange(12, dtype=np.int64).reshape(3, 4)",
      "print(int(a.sum()), a.shape, round(float(np.linalg.det(np.array([[2.0, 1.0], [1.0, 3.0]]))), 9))",
      "print(np.__file__.startswith('/usr/lib/python3/dist-packages/'))",
    ].join("\n");
    const { result } = await run("python", code);
    assert.equal(result.verdict, "AC", result.stderr);
    assert.equal(result.stdout, "66 (3, 4) 5.0\nTrue\n");
  });
});
