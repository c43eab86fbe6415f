// bench/ and test/ never import each other: what both use lives in shared-fixtures/
// (docs/architecture.md's map). The import graph is TypeScript's own (`tsc --explainFiles` names,
// for every file, each file that imports it: static, type-only and dynamic imports alike); paths
// that reach a module without an import (a worker's or a child's URL) are read from the sources.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { globSync, readFileSync } from "node:fs";
import { dirname, join, normalize, resolve } from "node:path";
import { test } from "node:test";

const ROOT = resolve(import.meta.dirname, "..", "..");
const SEPARATE = ["bench/", "test/"];

/** The tree a repository path belongs to, if it is one of the two kept apart. */
function tree(path: string): string | undefined {
  return SEPARATE.find((folder) => path.startsWith(folder));
}

/** Every import of the root project as [importer, imported], paths relative to the repository. */
export function importEdges(explained: string): [string, string][] {
  const edges: [string, string][] = [];
  let imported = "";
  for (const line of explained.split("\n")) {
    if (line !== "" && !line.startsWith(" ")) imported = line.trim();
    const via = /^\s+Imported via (["']).*?\1 from file '([^']+)'/.exec(line);
    if (via) edges.push([normalize(via[2]!), normalize(imported)]);
  }
  return edges;
}

function crossing([from, to]: [string, string]): boolean {
  const fromTree = tree(from);
  const toTree = tree(to);
  return fromTree !== undefined && toTree !== undefined && fromTree !== toTree;
}

test("no file of bench/ imports test/, and none of test/ imports bench/", { timeout: 300_000 }, () => {
  const tsc = spawnSync(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", ".", "--noEmit", "--explainFiles"], {
    cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024,
  });
  const edges = importEdges(tsc.stdout);
  assert.ok(edges.some(([from, to]) => from.startsWith("bench/") && to.startsWith("shared-fixtures/")), "the graph shows bench/ importing shared-fixtures/");
  assert.ok(edges.some(([from, to]) => from.startsWith("test/") && to.startsWith("shared-fixtures/")), "the graph shows test/ importing shared-fixtures/");
  assert.deepEqual(edges.filter(crossing).map(([from, to]) => `${from} imports ${to}`), []);
});

test("no relative path in bench/ or test/ leads into the other", () => {
  const found: string[] = [];
  for (const file of globSync(["bench/**/*.ts", "test/**/*.ts"], { cwd: ROOT })) {
    const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
    lines.forEach((line, index) => {
      for (const [, path] of line.matchAll(/["'`](\.{1,2}\/[^"'`$]*)/g)) {
        const target = normalize(join(dirname(file), path!));
        if (crossing([file, target])) found.push(`${file}:${index + 1}: ${path}`);
      }
    });
  }
  assert.deepEqual(found, []);
});

test("the edge reader reads tsc's explanation", () => {
  const sample = ["bench/a.ts", "  Matched by include pattern 'bench/**/*.ts' in 'tsconfig.json'", "test/b.ts",
    "  Imported via \"../test/b.ts\" from file 'bench/a.ts'", "  Imported via '../b.ts' from file 'test/x/c.ts'"].join("\n");
  assert.deepEqual(importEdges(sample), [["bench/a.ts", "test/b.ts"], ["test/x/c.ts", "test/b.ts"]]);
  assert.ok(crossing(["bench/a.ts", "test/b.ts"]) && crossing(["test/x/c.ts", "bench/a.ts"]) && !crossing(["test/a.ts", "test/b.ts"]));
});
