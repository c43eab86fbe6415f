// The launcher's sources, checked the way a reviewer would by reading them: no file over 400
// lines, no function over 80, and docs/sandbox.md's map of the launcher's files names exactly the
// files there are (the check server's, in checkd/, too).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";

const ROOT = join(import.meta.dirname, "..", "..");
const DIR = join(ROOT, "fleet", "launcher");
const sources = readdirSync(DIR, { recursive: true, encoding: "utf8" }).filter((f) => /\.[ch]$/.test(f) && !f.startsWith("build/")).sort();
const lines = (file: string) => readFileSync(join(DIR, file), "utf8").split("\n");

/** A function starts at a line `static ... )`, `int name(...)` or the like, then a line `{`; it
 *  ends at the next line that is exactly `}`. Its length counts both. */
function functions(file: string): { name: string; length: number }[] {
  const text = lines(file);
  const found: { name: string; length: number }[] = [];
  for (let i = 1; i < text.length; i++) {
    if (text[i] !== "{") continue;
    let head = i - 1;
    while (head > 0 && /^\s/.test(text[head]!)) head--; /* a signature wrapped over lines */
    const name = /(\w+)\s*\(/.exec(text[head]!.replace(/__attribute__\(\(.*?\)\)/g, ""))?.[1] ?? text[head]!;
    const end = text.indexOf("}", i);
    found.push({ name: `${file}:${name}`, length: end - head + 1 });
    i = end;
  }
  return found;
}

describe("launcher structure", () => {
  it("no launcher source file over 400 lines", () => {
    const long = sources.map((f) => `${f}: ${lines(f).length - 1}`).filter((s) => Number(s.split(": ")[1]) > 400);
    assert.deepEqual(long, []);
  });

  it("no launcher function over 80 lines", () => {
    const all = sources.filter((f) => f.endsWith(".c")).flatMap(functions);
    assert.ok(all.some((f) => f.name === "main.c:main"), "the checker finds functions");
    assert.deepEqual(all.filter((f) => f.length > 80).map((f) => `${f.name}: ${f.length}`), []);
  });

  it("docs/sandbox.md's map of the launcher names every source file, and only those", () => {
    const doc = readFileSync(join(ROOT, "docs", "sandbox.md"), "utf8");
    const map = /<!-- launcher files -->([\s\S]*?)<!-- \/launcher files -->/.exec(doc)?.[1];
    assert.ok(map, "docs/sandbox.md has a map of the launcher's files");
    const named = [...new Set([...map.matchAll(/`([\w/-]+\.[ch])`/g)].map((m) => m[1]!))].sort();
    assert.deepEqual(named, sources);
  });
});
