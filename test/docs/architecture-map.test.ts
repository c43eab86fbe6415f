// docs/architecture.md's "Map of the repository" names every folder the repository tracks, and
// only folders that exist. Generated and source trees of the contract (proto/gen/, proto/codecell/)
// are one row each, and so are the language folders (languages/<name>/, one per language: adding a
// language is adding a folder, nothing else).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";

const ROOT = resolve(import.meta.dirname, "..", "..");
const ONE_ROW = ["proto/gen/", "proto/codecell/", "languages/"];

function trackedFolders(): Set<string> {
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" }).split("\n").filter(Boolean);
  const folders = new Set<string>();
  for (const file of files) {
    for (let dir = dirname(file); dir !== "."; dir = dirname(dir)) folders.add(`${dir}/`);
  }
  return new Set([...folders].filter((dir) => !ONE_ROW.some((row) => dir.startsWith(row) && dir !== row)));
}

export function mappedFolders(markdown: string): string[] {
  const start = markdown.indexOf("## Map of the repository");
  assert.ok(start >= 0, "docs/architecture.md has no '## Map of the repository' section");
  const end = markdown.indexOf("\n## ", start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `([^`]+\/)` \|/gm)].map((match) => match[1]!);
}

test("docs/architecture.md's map names every tracked folder, and only folders that exist", () => {
  const mapped = mappedFolders(readFileSync(join(ROOT, "docs", "architecture.md"), "utf8"));
  assert.ok(mapped.length > 40, `found ${mapped.length} rows`);
  const tracked = trackedFolders();
  const missing = [...tracked].filter((dir) => !mapped.includes(dir)).sort();
  const gone = mapped.filter((dir) => !tracked.has(dir) || !statSync(join(ROOT, dir), { throwIfNoEntry: false })?.isDirectory());
  assert.deepEqual({ missing, gone }, { missing: [], gone: [] });
  assert.equal(new Set(mapped).size, mapped.length, "a folder is listed twice");
});
