// The language layer's host-side pieces, without the kernel: the compile cache (size cap, LRU,
// pins, restart), the alias table, Java's class-name detection and TypeScript's emit step.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CompileCache } from "../../fleet/src/languages/cache.ts";
import { findLanguage, javaSource, LANGUAGES } from "../../fleet/src/languages/table.ts";
import { typescriptEmitArgv } from "../../languages/typescript/emit.ts";

const withDir = async (fn: (dir: string) => void | Promise<void>) => {
  const dir = mkdtempSync(join(tmpdir(), "codecell-cache-"));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
const key = (n: number) => CompileCache.key(["test", n]);

describe("compile cache", () => {
  it("stores, hits, and keys by content", () =>
    withDir(async (dir) => {
      const cache = new CompileCache(join(dir, "cache"), 1000);
      assert.equal(cache.lookup(key(1)), undefined);
      const stored = (await cache.store(key(1), Buffer.from("artifact"), true))!;
      stored.release();
      const hit = cache.lookup(key(1))!;
      assert.equal(hit.path, join(dir, "cache", key(1)));
      assert.equal(lstatSync(hit.path).mode & 0o777, 0o755);
      hit.release();
      assert.notEqual(CompileCache.key(["c", "gcc 12", ["-O2"], "a"]), CompileCache.key(["c", "gcc 12", ["-O2"], "b"]));
      assert.notEqual(CompileCache.key(["c", "gcc 12", ["-O2"], "a"]), CompileCache.key(["c", "gcc 13", ["-O2"], "a"]));
    }));

  it("evicts least recently used entries over the cap, never a pinned one", () =>
    withDir(async (dir) => {
      // one tenant allowed the whole cache: plain LRU
      const cache = new CompileCache(join(dir, "cache"), 300, { maxArtifactBytes: 300, tenantShareBytes: 300 });
      (await cache.store(key(1), Buffer.alloc(100), true))!.release();
      (await cache.store(key(2), Buffer.alloc(100), true))!.release();
      (await cache.store(key(3), Buffer.alloc(100), true))!.release();
      cache.lookup(key(1))!.release(); // 1 is now the most recent: 2 goes first
      const pinned = cache.lookup(key(3))!;
      (await cache.store(key(4), Buffer.alloc(100), true))!.release();
      assert.equal(cache.lookup(key(2)), undefined);
      assert.ok(cache.bytes <= 300);
      (await cache.store(key(5), Buffer.alloc(200), true))!.release();
      assert.ok(cache.lookup(key(3)), "pinned entry survives");
      pinned.release();
      assert.equal((await cache.store(key(6), Buffer.alloc(301), true)), undefined, "bigger than the cap: not cached");
      assert.equal(readdirSync(join(dir, "cache")).filter((name) => name.startsWith(".tmp")).length, 0);
    }));

  it("one tenant's large artifacts cannot evict the other tenants' programs", () =>
    withDir(async (dir) => {
      const MiB = 1024 * 1024;
      const cache = new CompileCache(join(dir, "cache"), 512 * MiB, { maxArtifactBytes: 64 * MiB, tenantShareBytes: 128 * MiB });
      for (let n = 0; n < 20; n++) (await cache.store(key(n), Buffer.alloc(10), true, `tenant-${n}`))!.release();
      for (let n = 100; n < 110; n++) (await cache.store(key(n), Buffer.alloc(56 * MiB), true, "flooder"))?.release();
      for (let n = 0; n < 20; n++) assert.ok(cache.lookup(key(n)), `tenant-${n}'s artifact survives`);
      assert.ok(cache.tenantBytes("flooder") <= 128 * MiB);
      assert.equal(cache.tenantBytes("flooder"), 2 * 56 * MiB, "the flooder keeps its two most recent artifacts");
      assert.ok(cache.lookup(key(109)) && cache.lookup(key(108)));
      assert.equal(cache.lookup(key(100)), undefined);
      assert.equal((await cache.store(key(200), Buffer.alloc(65 * MiB), true, "other")), undefined, "above the per-artifact cap: not cached");
    }));

  it("a tenant whose share is held by artifacts in use gets no new entry, and nobody else loses one", () =>
    withDir(async (dir) => {
      const cache = new CompileCache(join(dir, "cache"), 1000, { maxArtifactBytes: 100, tenantShareBytes: 200 });
      (await cache.store(key(1), Buffer.alloc(50), true, "a"))!.release();
      const pinned = [(await cache.store(key(2), Buffer.alloc(100), true, "b"))!, (await cache.store(key(3), Buffer.alloc(100), true, "b"))!];
      assert.equal((await cache.store(key(4), Buffer.alloc(100), true, "b")), undefined);
      for (const lease of pinned) lease.release();
      assert.ok((await cache.store(key(4), Buffer.alloc(100), true, "b")), "once released, b evicts its own oldest");
      assert.equal(cache.lookup(key(2)), undefined);
      assert.ok(cache.lookup(key(1)));
      assert.equal(cache.tenantBytes("b"), 200);
    }));

  it("survives a restart and removes anything it did not write", () =>
    withDir(async (dir) => {
      const cacheDir = join(dir, "cache");
      (await new CompileCache(cacheDir, 1000).store(key(1), Buffer.from("x"), false))!.release();
      writeFileSync(join(cacheDir, ".tmp-1-1"), "partial");
      symlinkSync("/etc/passwd", join(cacheDir, key(9)));
      const reopened = new CompileCache(cacheDir, 1000);
      assert.ok(reopened.lookup(key(1)));
      assert.equal(reopened.lookup(key(9)), undefined);
      assert.deepEqual(readdirSync(cacheDir), [key(1)]);
    }));
});

describe("language table", () => {
  it("maps every accepted language name and alias (docs/api.md) to its canonical name", () => {
    const expected: Record<string, string> = {
      python: "python", py: "python", c: "c", cpp: "cpp", "c++": "cpp", cxx: "cpp", cc: "cpp", java: "java",
      javascript: "javascript", js: "javascript", typescript: "typescript", ts: "typescript", go: "go", rust: "rust", rs: "rust",
      "multi-file": "multi-file",
    };
    for (const [name, canonical] of Object.entries(expected)) assert.equal(findLanguage(name)?.name, canonical, name);
    assert.equal(findLanguage(" Py "), undefined, "docs/api.md values are exact, as the edge validates them");
    assert.equal(findLanguage("cobol"), undefined);
    assert.equal(LANGUAGES.length, 9);
  });

  it("java: names the file after the public class, in its package", () => {
    assert.deepEqual(javaSource("public class Main {}"), { fileName: "Main.java", entry: "Main" });
    assert.deepEqual(javaSource("import java.util.*;\nclass Helper {}\npublic final class Solution { }"), { fileName: "Solution.java", entry: "Solution" });
    assert.deepEqual(javaSource("// public class Fake {}\n/* public class Nope */\npublic class Real {}"), { fileName: "Real.java", entry: "Real" });
    assert.deepEqual(javaSource("package a.b;\npublic class X {}"), { fileName: "X.java", entry: "a.b.X" });
    assert.deepEqual(javaSource("class A {}\nclass Main {}"), { fileName: "Main.java", entry: "Main" });
    assert.deepEqual(javaSource("class Only { public static void main(String[] a) {} }"), { fileName: "Only.java", entry: "Only" });
    assert.deepEqual(javaSource("// nothing"), { fileName: "Main.java", entry: "Main" });
  });

  it("typescript: the emit step blanks types in place, transforms only what needs code, and names the source", () =>
    withDir((dir) => {
      const emit = (code: string) => {
        rmSync(join(dir, "main.js"), { force: true });
        writeFileSync(join(dir, "main.ts"), code);
        const [node, ...args] = typescriptEmitArgv(process.execPath, "main.ts", "main.js");
        const ran = spawnSync(node!, args, { cwd: dir, encoding: "utf8" });
        return { status: ran.status, stderr: ran.stderr, js: ran.status === 0 ? readFileSync(join(dir, "main.js"), "utf8") : "" };
      };
      const stripped = emit("const x: number = 1;\nconsole.log(x)");
      assert.equal(stripped.status, 0, stripped.stderr);
      assert.equal(stripped.js, `const x         = 1;\nconsole.log(x)\n\n//# sourceURL=${join(dir, "main.ts")}`);
      const transformed = emit("enum A { B }\nconsole.log(A.B)");
      assert.equal(transformed.status, 0, transformed.stderr);
      assert.match(transformed.js, /^\/\/# sourceMappingURL=data:application\/json;base64,/m);
      assert.doesNotMatch(transformed.js, /enum/);
      const broken = emit("const a = 1;\nconst x: number = ;\n");
      assert.equal(broken.status, 1);
      assert.match(broken.stderr, new RegExp(`^${join(dir, "main.ts")}:2\n`));
      assert.match(broken.stderr, /SyntaxError \[ERR_INVALID_TYPESCRIPT_SYNTAX\]: Expression expected\n$/);
      assert.doesNotMatch(broken.stderr, /\n\s+at /);
    }));
});

describe("java source names", () => {
  it("any Unicode letter javac accepts names the file; too long a name is refused with the limit", () => {
    assert.deepEqual(javaSource("public class Grüße { }"), { fileName: "Grüße.java", entry: "Grüße" });
    assert.equal(javaSource("package ä.b;\npublic final class 你好 {}").entry, "ä.b.你好");
    assert.equal(javaSource("class $Dollar_1 {}").fileName, "$Dollar_1.java");
    const long = javaSource(`public class C${"x".repeat(249)} {}`);
    assert.match(long.problem ?? "", /at most 255 bytes \(this one is 256 bytes/);
    assert.equal(javaSource(`public class C${"x".repeat(248)} {}`).problem, undefined);
  });
  it("agrees with the rule as regexes (its first form) on 20 000 random sources of declarations, comments and line breaks", () => {
    const ID = String.raw`[\p{L}\p{Nl}\p{Sc}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Sc}]*`;
    const reference = (code: string) => {
      const stripped = code.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, " ");
      const pkg = new RegExp(String.raw`^\s*package\s+(${ID}(?:\s*\.\s*${ID})*)\s*;`, "mu").exec(stripped)?.[1]?.replace(/\s+/g, "");
      const modifiers = String.raw`(?:(?:final|abstract|sealed|non-sealed|strictfp|static)\s+)*`;
      const declaration = new RegExp(String.raw`(?<![\p{L}\p{Nd}_$])(public\s+)?${modifiers}(?:class|interface|enum|record)\s+(${ID})`, "gu");
      const types = [...stripped.matchAll(declaration)].map((m) => ({ name: m[2]!, isPublic: m[1] !== undefined, at: m.index, hasMain: false }));
      for (const main of stripped.matchAll(/\bstatic\s+(?:(?:public|final|synchronized|strictfp)\s+)*void\s+main\s*\(/g)) {
        const owner = types.findLast((type) => type.at < main.index);
        if (owner) owner.hasMain = true;
      }
      const runs = types.find((type) => type.isPublic && type.hasMain) ?? types.find((type) => type.hasMain);
      const className = types.find((type) => type.isPublic)?.name ?? runs?.name ?? (types.some((type) => type.name === "Main") ? "Main" : types[0]?.name) ?? "Main";
      return { fileName: `${className}.java`, entry: pkg ? `${pkg}.${runs?.name ?? className}` : (runs?.name ?? className) };
    };
    // no strings, no lone CR, no line break inside a block comment, no unclosed comment: where the first form was wrong
    const PIECES = ["class ", "interface ", "record ", "enum ", "public ", "final ", "static ", "sealed ", "non-sealed ", "abstract ", "synchronized ",
      "void ", "main", "(", ")", "A", "B", "Main", "ä", " ", "  ", "\t", "\n", "\r\n", "package ", "a", "b", ".", " . ", ";", "/* c */", "// public class C\n", "{ ", "} ", "x", "1"];
    let seed = 7;
    const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (let n = 0; n < 20_000; n++) {
      const code = Array.from({ length: 1 + Math.floor(next() * 16) }, () => PIECES[Math.floor(next() * PIECES.length)]).join("");
      assert.deepEqual(javaSource(code), reference(code), JSON.stringify(code));
    }
  });
  it("strings, characters and text blocks are not code: what they hold declares nothing and opens no comment", () => {
    assert.equal(javaSource('class A { String s = "public class Fake {"; }\npublic class Real {}').fileName, "Real.java");
    assert.equal(javaSource('class A { String u = "http://x"; } public class B {}').fileName, "B.java");
    assert.equal(javaSource('class A { String u = "/*"; } public class B { String v = "*/"; }').fileName, "B.java");
    assert.equal(javaSource("class A { char q = '\"'; char b = '\\''; } public class B { String s = \"x\\\"y\"; }").fileName, "B.java");
    assert.equal(javaSource('class A { String t = """\n  public class Fake { \\""" }\n  """; }\npublic class Real {}').fileName, "Real.java");
    assert.equal(javaSource('class A { String t = """\n  package x;\n"""; }\nclass B { static void main(String[] a) {} }').entry, "B");
  });
  it("modifiers, non-sealed among them; a package written with comments and spaces; a package only at a line's start", () => {
    assert.equal(javaSource("public non-sealed class X extends S {}").fileName, "X.java");
    assert.equal(javaSource("sealed interface S permits A {}\nnon-sealed class A implements S { public static void main(String[] a) {} }").entry, "A");
    assert.equal(javaSource("/* header */ package a /* c */ . b // d\n;\nclass X {}").entry, "a.b.X");
    assert.equal(javaSource("class A {} package b;").entry, "A");
    assert.equal(javaSource("class A {}\n  package b;").entry, "b.A");
    assert.equal(javaSource("public class Main {}\n/* unclosed\npublic class Other {}").fileName, "Main.java");
  });
  it("a tenant's 64 KiB costs linear work: unclosed comments, runs of line breaks, of modifiers, of quotes", () => {
    // Each was quadratic with regexes (the test runner's timeout bounds them); the result is still right.
    const KiB64 = 64 * 1024;
    assert.deepEqual(javaSource(`public class X {}\n/*${"x\n".repeat(KiB64 / 2)}`), { fileName: "X.java", entry: "X" });
    assert.deepEqual(javaSource(`public class X {}\n${"/*".repeat(KiB64 / 2)}`), { fileName: "X.java", entry: "X" });
    assert.deepEqual(javaSource(`${"\n".repeat(KiB64)}class X {}`), { fileName: "X.java", entry: "X" });
    assert.deepEqual(javaSource(`${"\n".repeat(KiB64)}package a;\nclass X {}`), { fileName: "X.java", entry: "a.X" });
    assert.deepEqual(javaSource(`class X {}\n${" \n".repeat(KiB64 / 2)}packag`), { fileName: "X.java", entry: "X" });
    assert.deepEqual(javaSource(`class X {}\n${"final ".repeat(KiB64 / 6)}x`), { fileName: "X.java", entry: "X" });
    assert.deepEqual(javaSource(`class X {}\nclass Y { ${"static public ".repeat(KiB64 / 14)}int main() {} }`), { fileName: "X.java", entry: "X" });
    assert.deepEqual(javaSource(`class X {}\n${"\"".repeat(KiB64)}`), { fileName: "X.java", entry: "X" });
    assert.deepEqual(javaSource(`package ${"a.".repeat(KiB64 / 2)}`), { fileName: "Main.java", entry: "Main" });
    assert.deepEqual(javaSource(`package a.${"\npackage .".repeat(KiB64 / 10)}\nclass X {}`), { fileName: "X.java", entry: "X" });
    assert.deepEqual(javaSource(`package a.\npackage b;\n${"class A {}\n".repeat(KiB64 / 22)}${"static void main(\n".repeat(KiB64 / 40)}`).entry, "b.A");
  });
});
