// The pure rules both sides share: the compiler-option allow-list (proto/compiler-options.ts), the
// files/args/compare rules (proto/submission-rules.ts), and Java's main class from the source.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { javaSource } from "../../fleet/src/languages/table.ts";
import { compileInputProblem } from "../../proto/compile-inputs.ts";
import { compilerOptionArgv, compilerOptionsProblem, disallowedCompilerOptions } from "../../proto/compiler-options.ts";
import { argsProblem, compareProblem, filePathProblem, filesProblem, fileTreeProblem } from "../../proto/submission-rules.ts";
import { mergeRuntimes, resolveVersion } from "../../proto/runtimes.ts";
import type { Runtime } from "../../proto/runtimes.ts";

describe("compiler options allow-list", () => {
  it("c and cpp: optimisation, standards, defines, warnings, libraries", () => {
    const allowed = ["-O0", "-O1", "-O2", "-O3", "-Os", "-Og", "-std=c89", "-std=c2x", "-std=gnu17", "-std=c++23", "-std=gnu++20", "-DX", "-D_Y=1", "-DN=1.5", "-DA_b9=", "-Wall", "-Wextra", "-Werror", "-w", "-pedantic", "-lm", "-lpthread", "-pthread"];
    for (const language of ["c", "cpp"]) assert.deepEqual(disallowedCompilerOptions(language, allowed), [], language);
    const refused = ["-march=native", "-O4", "-Ofast", "-std=c++26", "-std=", "-D1X", "-DX=a b", "-DX=$(id)", "-D", "-o", "/etc/passwd", "-fplugin=x.so", "-I/", "-Wl,-rpath", "-lfoo", "-include", "-O2 -march=native", "-specs=x", "@file", "-B/tmp", " -O2", "-O2\0"];
    assert.deepEqual(disallowedCompilerOptions("c", refused), refused);
  });

  it("rust: edition, opt-level in both spellings, -O", () => {
    assert.deepEqual(disallowedCompilerOptions("rust", ["--edition=2015", "--edition=2024", "-C opt-level=s", "-Copt-level=3", "-O"]), []);
    assert.deepEqual(disallowedCompilerOptions("rust", ["--edition=2027", "--edition 2021", "-C opt-level=4", "-C link-arg=x", "-Clinker=/bin/sh", "-C  opt-level=1"]).length, 6);
    assert.deepEqual(compilerOptionArgv("-C opt-level=2"), ["-C", "opt-level=2"]);
    assert.deepEqual(compilerOptionArgv("-Copt-level=2"), ["-Copt-level=2"]);
  });

  it("java allows -Xlint, -Xlint:all, -g; go, typescript, python, javascript and unknown languages allow nothing", () => {
    assert.deepEqual(disallowedCompilerOptions("java", ["-Xlint", "-Xlint:all", "-g", "-Xlint:none", "-J-Xmx9g", "-processor"]), ["-Xlint:none", "-J-Xmx9g", "-processor"]);
    for (const language of ["go", "typescript", "python", "javascript", "cobol"]) assert.deepEqual(disallowedCompilerOptions(language, ["-O2"]), ["-O2"]);
  });

  it("every option that makes a compiler load a file or run a program is refused (docs/languages.md, What a compile loads)", () => {
    const loaders: Record<string, string[]> = {
      c: ["-fplugin=/box/x.so", "-fplugin-arg-x-y=1", "-iplugindir=/box", "-specs=/box/s", "--specs=/box/s", "-wrapper", "/bin/sh,-c", "-B/box", "-B", "/box", "@opts", "-Wp,-fplugin=/box/x.so", "-Xpreprocessor", "-Wl,-plugin,/box/x.so", "-Xlinker", "-fuse-ld=/box/ld", "-flto", "-fuse-linker-plugin", "-include", "/box/x.h", "-imacros", "-isystem/box", "-I/box", "-save-temps", "-x", "-DX=$(sh)"],
      java: ["@args", "-J-javaagent:/box/a.jar", "-J-XX:Flags=/box/f", "-processorpath", "--processor-path", "-processor", "--processor-module-path", "-proc:full", "-proc:only", "-Xplugin:X", "-cp", "-classpath", "--class-path", ".", "-sourcepath", "--module-path", "--upgrade-module-path", "--system", "-Xbootclasspath/p:/box", "-J-Djava.class.path=/box"],
      rust: ["-C linker=/box/ld", "-Clinker=/bin/sh", "-C link-arg=-specs=/box/s", "-Clink-args=-fplugin=x", "-C linker-flavor=gcc", "@file", "-L", "/box", "-L/box", "--extern", "evil=/box/libevil.so", "-Z", "unstable-options", "--sysroot=/box", "-l", "dylib=evil", "--cfg", "-C prefer-dynamic", "-C codegen-backend=/box/x.so"],
      go: ["-toolexec=/bin/sh", "-ldflags=-linkmode=external", "-gcflags=all=-N", "-asmflags", "-modfile=/box/go.mod", "-overlay=/box/o.json", "-mod=mod"],
      cpp: ["-fplugin=/box/x.so", "-specs=/box/s", "@opts", "-B/box", "-wrapper", "-fmodules-ts", "-fmodule-mapper=/box/m"],
    };
    for (const [language, options] of Object.entries(loaders)) assert.deepEqual(disallowedCompilerOptions(language, options), options, language);
  });

  it("files a compiler would load by name alone: .gch for c and cpp (a file or a directory), nothing for the others", () => {
    for (const language of ["c", "cpp"]) {
      assert.match(compileInputProblem(language, ["util.h", "util.h.gch"])!, /^files: "util\.h\.gch" is a precompiled header.*\*\.gch/);
      assert.match(compileInputProblem(language, ["lib/bits/stdc++.h.gch/x"])!, /^files: "lib\/bits\/stdc\+\+\.h\.gch\/x"/);
      assert.equal(compileInputProblem(language, ["util.h", "a.gch.txt", "gch", "lib/x.h"]), null);
    }
    for (const language of ["java", "go", "rust", "python", "javascript", "typescript", "cobol"]) assert.equal(compileInputProblem(language, ["util.h.gch"]), null, language);
  });

  it("the problem names the field, the options and the cap", () => {
    assert.equal(compilerOptionsProblem("c", ["-O2"]), null);
    assert.match(compilerOptionsProblem("c", ["-march=native"])!, /^compiler_options: "-march=native" not allowed for c/);
    assert.match(compilerOptionsProblem("c", Array(33).fill("-O2"))!, /compiler_options has 33 entries; at most 32/);
  });
});

describe("files, args, compare", () => {
  it("paths: relative segments of [A-Za-z0-9._-], no . or .., at most 8 levels", () => {
    for (const path of ["util.h", "lib/util.h", "a/b/c/d/e/f/g/h", ".hidden", "x..y", "A-b_c.9"]) assert.equal(filePathProblem(path), null, path);
    const bad = ["", "/etc/passwd", "../x", "a/../b", "./a", "a/./b", "a//b", "a/", "a b", "a\\b", "ü.txt", "a/b/c/d/e/f/g/h/i", "a\0b"];
    for (const path of bad) assert.match(filePathProblem(path) ?? "", /^files: /, JSON.stringify(path));
  });

  it("no duplicates, not the main source, at most 32 files and 1 MiB in all, no file that is also a directory", () => {
    assert.equal(filesProblem([{ path: "a", size: 1 }, { path: "b/a", size: 1 }], "main.c"), null);
    assert.match(filesProblem([{ path: "a", size: 1 }, { path: "a", size: 1 }])!, /appears twice/);
    assert.match(filesProblem([{ path: "main.c", size: 1 }], "main.c")!, /main source/);
    assert.match(filesProblem(Array.from({ length: 33 }, (_, i) => ({ path: `f${i}`, size: 1 })))!, /33 entries; at most 32/);
    assert.equal(filesProblem([{ path: "a", size: 512 * 1024 }, { path: "b", size: 512 * 1024 }]), null);
    assert.match(filesProblem([{ path: "a", size: 512 * 1024 }, { path: "b", size: 512 * 1024 + 1 }])!, /at most 1048576/);
    assert.match(fileTreeProblem(["lib", "lib/x.h"])!, /both a file and the directory/);
    assert.equal(fileTreeProblem(["lib/a.h", "lib/b.h", "libx"]), null);
  });

  it("args: at most 64, each at most 4096 bytes, no NUL", () => {
    assert.equal(argsProblem(["", "x", "ü".repeat(2048)]), null);
    assert.match(argsProblem(Array(65).fill("x"))!, /65 entries; at most 64/);
    assert.match(argsProblem(["ok", "a\0b"])!, /args\[1\] contains a NUL/);
    assert.match(argsProblem(["ü".repeat(2049)])!, /args\[0\] is longer than 4096 bytes/);
  });

  it("compare mode and float epsilon in (0, 1] (0 = default)", () => {
    for (const mode of ["", "exact", "lines", "tokens", "float"]) assert.equal(compareProblem(mode, 0), null);
    assert.match(compareProblem("fuzzy", 0)!, /check.compare "fuzzy" is not one of/);
    assert.equal(compareProblem("float", 1), null);
    assert.equal(compareProblem("float", 1e-12), null);
    for (const epsilon of [-1e-6, 1.0000001, Number.NaN, Number.POSITIVE_INFINITY]) assert.match(compareProblem("float", epsilon)!, /float_epsilon .* outside \(0, 1\]/);
  });
});

describe("Java main class", () => {
  it("the public class with main names the file and runs", () => {
    assert.deepEqual(javaSource("public class HelloWorld { public static void main(String[] a) {} }"), { fileName: "HelloWorld.java", entry: "HelloWorld" });
  });
  it("without a public class, the first class with a main runs and names the file", () => {
    assert.deepEqual(javaSource("class Helper {}\nclass Solution { public static void main(String[] a) {} }\nclass Later { static public void main(String[] a) {} }"), { fileName: "Solution.java", entry: "Solution" });
  });
  it("a public class without main still names the file (javac's rule); the class with main runs", () => {
    assert.deepEqual(javaSource("public class Lib { static int f() { return 1; } }\nclass Runner { public static void main(String... a) {} }"), { fileName: "Lib.java", entry: "Runner" });
  });
  it("modifiers in any order", () => {
    assert.equal(javaSource("class A {}\nclass B { static public void main(String[] a) {} }").entry, "B");
    assert.equal(javaSource("class A {}\nclass C { final public static void main(String[] a) {} }").entry, "C");
  });
  it("a main mentioned in a comment does not count", () => {
    assert.deepEqual(javaSource("class A { /* public static void main( */ }\nclass B { public static void main(String[] a) {} }"), { fileName: "B.java", entry: "B" });
  });
});

describe("runtimes: a request's version and the fleet's list", () => {
  const rt = (language: string, version: string, extra: Partial<Runtime> = {}): Runtime => ({
    language, version, aliases: [], default: false, compiled: false, libraries: [], ...extra,
  });
  const list = [rt("go", "1.19.8", { default: true, aliases: ["1.19"] }), rt("go", "1.23.5", { aliases: ["1.23", "go1.23.5"] }), rt("python", "3.11.2", { default: true })];

  it("no version: the default (else the first listed); a version or an alias: that one; unknown or another language's: null", () => {
    assert.equal(resolveVersion(list, "go")?.version, "1.19.8");
    assert.equal(resolveVersion([rt("go", "1.23.5"), rt("go", "1.19.8")], "go")?.version, "1.23.5");
    assert.equal(resolveVersion(list, "go", "1.23.5")?.version, "1.23.5");
    assert.equal(resolveVersion(list, "go", "go1.23.5")?.version, "1.23.5");
    assert.equal(resolveVersion(list, "go", "1.19")?.version, "1.19.8");
    assert.equal(resolveVersion(list, "go", "1.20"), null);
    assert.equal(resolveVersion(list, "python", "1.23"), null);
    assert.equal(resolveVersion(list, "rust"), null);
  });

  it("merged over nodes: one entry per language and version, aliases and libraries united, default if any node says so, languages in order", () => {
    const a = [rt("python", "3.11.2", { aliases: ["3.11"], libraries: ["numpy"] }), rt("go", "1.19.8", { default: true })];
    const b = [rt("go", "1.19.8", { aliases: ["1.19"] }), rt("python", "3.11.2", { default: true, aliases: ["3.11", "3"] })];
    const merged = mergeRuntimes([a, b], ["python", "go"]);
    assert.deepEqual(merged.map((r) => [r.language, r.version, r.default, r.aliases, r.libraries]), [
      ["python", "3.11.2", true, ["3.11", "3"], ["numpy"]],
      ["go", "1.19.8", true, ["1.19"], []],
    ]);
    assert.deepEqual(a[0]!.aliases, ["3.11"], "the inputs are not changed");
    assert.deepEqual(mergeRuntimes([[rt("cobol", "1")], [rt("go", "1")]], ["go"]).map((r) => r.language), ["go", "cobol"]);
  });
});
