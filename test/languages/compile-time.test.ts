// What a request's files and compiler options can make a compiler load or run, on the real kernel:
// a compile runs with the compile limits (1 GiB, 256 processes), not the key's plan, so no tenant
// code and no tenant-chosen flags may get into it. One case per hole of docs/languages.md's
// "What a compile loads" table; each sends the file or option that WOULD act at compile time.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EngineRequest, ExecuteOutcome } from "../../fleet/src/engine.ts";
import { findLanguage } from "../../fleet/src/languages/table.ts";
import { requireKernel } from "../helpers.ts";
import { useEngine } from "../kernel-fixtures.ts";
import { annotationProcessor, MARKER, precompiledHeader, procMacroCrate } from "./compile-fixtures.ts";

const { engine, stateDir } = useEngine("codecell-compile-time-");

const run = (request: Partial<EngineRequest> & Pick<EngineRequest, "language" | "code">): Promise<ExecuteOutcome> =>
  engine.execute({ stdin: "", ...request });
const versions = (language: string): string[] => engine.languages().filter((info) => info.name === language).map((info) => info.version);
const shown = (outcome: ExecuteOutcome) => `${outcome.result.verdict} ${outcome.result.evidence.verdict_cause}: ${outcome.result.stderr.slice(0, 600)}`;

function assertRan(outcome: ExecuteOutcome, stdout: string): void {
  assert.ok(!outcome.result.stderr.includes(MARKER), shown(outcome));
  assert.equal(outcome.result.verdict, "AC", shown(outcome));
  assert.equal(outcome.result.stdout, stdout);
}

function assertCompileError(outcome: ExecuteOutcome, diagnostic: RegExp): void {
  assert.ok(!outcome.result.stderr.includes(MARKER), shown(outcome));
  assert.equal(outcome.result.verdict, "RE", shown(outcome));
  assert.equal(outcome.result.evidence.verdict_cause, "compile_error", shown(outcome));
  assert.match(outcome.result.stderr, diagnostic);
}

const JAVA_HELLO = 'public class Main { public static void main(String[] a) { System.out.println("hi"); } }';

describe("java: javac runs no tenant code", { skip: !requireKernel(), concurrency: true }, () => {
  it("an annotation processor among the files (P.class + META-INF/services) is not run, on every JDK", async () => {
    const files = annotationProcessor(stateDir);
    await Promise.all(versions("java").map(async (version) => assertRan(await run({ language: "java", version, code: JAVA_HELLO, files }), "hi\n")));
  });

  it(".hotspotrc and .hotspot_compiler in the work dir do not reach javac's JVM or the program's", async () => {
    const files = [
      { path: ".hotspotrc", content: "+CodecellNoSuchFlag\n" },
      { path: ".hotspot_compiler", content: "CodecellNoSuchCommand\n" },
    ];
    for (const version of versions("java")) assertRan(await run({ language: "java", version, code: JAVA_HELLO, files }), "hi\n");
  });
});

/** Prints VALUE from util.h, and whether a specs file added FROM_SPECS. */
const USES_UTIL_H = (include: string) =>
  `#include "util.h"\n#include <${include}>\nint main(void) {\n#ifdef FROM_SPECS\n  puts("specs applied");\n#endif\n  printf("%d\\n", VALUE);\n  return 0;\n}\n`;

describe("c and cpp: gcc loads nothing of the tenant's but sources and headers", { skip: !requireKernel(), concurrency: true }, () => {
  for (const [language, compiler, include] of [["c", "gcc", "stdio.h"], ["cpp", "g++", "cstdio"]] as const) {
    it(`${language}: a precompiled header (util.h.gch) is refused before the compile`, async () => {
      const files = [
        { path: "util.h", content: "#define VALUE 1\n" },
        { path: "util.h.gch", content: precompiledHeader(stateDir, compiler) },
      ];
      const outcome = await run({ language, code: USES_UTIL_H(include), files });
      assert.equal(outcome.result.verdict, "RE", shown(outcome));
      assert.equal(outcome.result.evidence.verdict_cause, "invalid_file_name", shown(outcome));
      assert.match(outcome.result.error_message ?? "", /files: "util\.h\.gch".*precompiled header/);
    });

    it(`${language}: a directory of precompiled headers (util.h.gch/) is refused too`, async () => {
      const files = [
        { path: "util.h", content: "#define VALUE 1\n" },
        { path: "util.h.gch/a", content: "not a header" },
      ];
      const outcome = await run({ language, code: USES_UTIL_H(include), files });
      assert.equal(outcome.result.evidence.verdict_cause, "invalid_file_name", shown(outcome));
      assert.match(outcome.result.error_message ?? "", /files: "util\.h\.gch\/a".*precompiled header/);
    });
  }

  it("a specs file and programs named as, ld, collect2, cc1 in the work dir are not used", async () => {
    const script = `#!/bin/sh\necho ${MARKER} >&2\nexit 1\n`;
    const files = [
      { path: "util.h", content: "#define VALUE 1\n" },
      { path: "specs", content: "*cpp:\n+ -DFROM_SPECS=1\n\n*cc1:\n+ -DFROM_SPECS=1\n" },
      ...["as", "ld", "collect2", "cc1", "cc1plus"].map((path) => ({ path, content: script })),
    ];
    assertRan(await run({ language: "c", code: USES_UTIL_H("stdio.h"), files }), "1\n");
    assertRan(await run({ language: "cpp", code: USES_UTIL_H("cstdio"), files }), "1\n");
  });

  it("compiler options that load files are refused by the engine too, not only by the node's request check", async () => {
    const files = [{ path: "util.h", content: "#define VALUE 1\n" }, { path: "opts", content: "-DVALUE=3\n" }];
    for (const option of ["@opts", "-fplugin=/box/x.so", "-specs=/box/opts", "-B/box"]) {
      const outcome = await run({ language: "c", code: '#include <stdio.h>\nint main(void) { printf("%d\\n", VALUE); return 0; }', files, compilerOptions: [option] });
      assert.equal(outcome.result.verdict, "RE", `${option}: ${shown(outcome)}`);
      assert.match(outcome.result.error_message ?? "", /^compiler_options: .* not allowed for c/, option);
    }
  });
});

const GO_HELLO = 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hi") }\n';

describe("go: the go command takes no tenant settings and runs no tenant tools", { skip: !requireKernel(), concurrency: true }, () => {
  it("go.mod (toolchain, replace), go.work, a go env file under HOME and //go:generate change nothing", async () => {
    const files = [
      { path: "go.mod", content: "module m\n\ngo 1.99\n\ntoolchain go1.99.1\n\nreplace fmt => ./fmt\n" },
      { path: "go.work", content: "go 1.99\n\nuse .\n" },
      { path: ".config/go/env", content: "GOFLAGS=-toolexec=/bin/false\nGOTOOLCHAIN=go1.99.1\n" },
      { path: "gen.go", content: `package main\n\n//go:generate /bin/sh -c "echo ${MARKER} >&2; exit 1"\n` },
    ];
    for (const version of versions("go")) assertRan(await run({ language: "go", version, code: GO_HELLO, files }), "hi\n");
  });

  it("a //go:cgo_ldflag directive in a tenant file is refused by the compiler", async () => {
    const files = [{ path: "ld.go", content: 'package main\n\n//go:cgo_ldflag "-fplugin=/box/x.so"\nimport _ "unsafe"\n' }];
    for (const version of versions("go")) assertCompileError(await run({ language: "go", version, code: GO_HELLO, files }), /only allowed in cgo-generated code/);
  });

  it('import "C" with #cgo flags does not build (cgo is off): gcc never runs', async () => {
    const code = 'package main\n\n// #cgo CFLAGS: -fplugin=/box/x.so\nimport "C"\n\nfunc main() {}\n';
    for (const version of versions("go")) {
      const outcome = await run({ language: "go", version, code });
      assertCompileError(outcome, /build constraints exclude all Go files|no buildable Go source files|cgo/);
      assert.doesNotMatch(outcome.result.stderr, /plugin/, shown(outcome));
    }
  });
});

describe("rust: rustc loads no tenant crate and takes no linker from the source", { skip: !requireKernel(), concurrency: true }, () => {
  it("a proc-macro crate among the files is not found (no -L, no --extern)", async () => {
    const files = [{ path: "libevil.so", content: await procMacroCrate(stateDir) }];
    assertCompileError(await run({ language: "rust", code: "extern crate evil;\nevil::evil!();\nfn main() {}\n", files }), /can't find crate for `evil`/);
  });

  it("#![plugin] and #[link(kind = \"link-arg\")] are refused by stable rustc", async () => {
    assertCompileError(await run({ language: "rust", code: "#![feature(plugin)]\n#![plugin(evil)]\nfn main() {}\n" }), /E0557|E0554/);
    const linkArg = '#[link(name = "-specs=/box/evil.specs", kind = "link-arg")]\nextern "C" {}\nfn main() {}\n';
    assertCompileError(await run({ language: "rust", code: linkArg }), /link kind `link-arg` is unstable/);
  });
});

describe("interpreted languages: no compile step, nothing gets the compile limits", { skip: !requireKernel(), concurrency: true }, () => {
  it("python and javascript have no compile step", () => {
    for (const name of ["python", "javascript"]) assert.equal(findLanguage(name)!.compile, undefined, name);
  });
});

describe("typescript: the compile runs Node's own transpiler on the source, nothing of the tenant's", { skip: !requireKernel(), concurrency: true }, () => {
  it("a node_modules/typescript, tsconfig.json, node.config.json and package.json in the files change nothing", async () => {
    const files = [
      { path: "node_modules/typescript/package.json", content: '{"name":"typescript","main":"lib/typescript.js"}' },
      { path: "node_modules/typescript/lib/typescript.js", content: `throw new Error("${MARKER}");` },
      { path: "node_modules/amaro/package.json", content: '{"name":"amaro","main":"index.js"}' },
      { path: "node_modules/amaro/index.js", content: `throw new Error("${MARKER}");` },
      { path: "tsconfig.json", content: '{"compilerOptions":{"plugins":[{"name":"typescript"}]}}' },
      { path: "node.config.json", content: '{"nodeOptions":{"max-old-space-size":4096,"import":"typescript"}}' },
      { path: "package.json", content: '{"imports":{"#x":"./node_modules/typescript/lib/typescript.js"}}' },
    ];
    const code = 'import { getHeapStatistics } from "node:v8";\nconst mib: number = getHeapStatistics().heap_size_limit / 1048576;\nconsole.log(mib < 1024 ? "capped" : `heap ${mib}`);\n';
    const outcome = await run({ language: "typescript", code, files });
    assertRan(outcome, "capped\n");
    assert.equal(outcome.compileCacheHit, false);
  });
});
