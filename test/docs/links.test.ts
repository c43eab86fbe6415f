// The repository stands alone: every relative link in its Markdown stays inside it, points at a
// file or folder that exists and, when it names a `#heading` of a Markdown file, at a heading that
// exists; and no Markdown names a `.md` file the repository does not have (notes kept elsewhere).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";

const ROOT = resolve(import.meta.dirname, "..", "..");

/** Every Markdown file of the repository (tracked or new, not ignored), in every folder. */
function markdownFiles(): string[] {
  const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.md"], { cwd: ROOT, encoding: "utf8" });
  return tracked.split("\n").filter((path) => path && !path.startsWith("node_modules/") && existsSync(join(ROOT, path)));
}

/** The Markdown without fenced code blocks and inline code spans. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^]*?^\1/gm, "").replace(/`[^`\n]*`/g, "");
}

/** Link targets of `[text](target)` and `[label]: target`, outside fenced and inline code. */
export function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const references = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1]!);
  return [...inline, ...references];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*~]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors a Markdown file offers: its headings' slugs, repeats numbered as GitHub does. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const withoutFences = markdown.replace(/^(```|~~~)[^]*?^\1/gm, "");
  for (const m of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = headingSlug(m[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const m of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) result.add(m[1]!);
  return result;
}

/** Why a link is broken, or null: external URLs are not checked here. */
export function linkProblem(fromFile: string, target: string, root = ROOT): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const [pathPart, anchor] = target.split("#") as [string, string | undefined];
  const path = decodeURIComponent(pathPart.split("?")[0]!);
  const from = join(root, fromFile);
  const resolved = path === "" ? from : path.startsWith("/") ? join(root, path) : resolve(dirname(from), path);
  const inside = relative(root, resolved);
  if (inside.startsWith("..") || resolve(root, inside) !== resolved) return `leaves the repository (${target})`;
  if (!existsSync(resolved)) return `points at a missing file (${target})`;
  if (anchor && resolved.endsWith(".md") && statSync(resolved).isFile()) {
    if (!anchors(readFileSync(resolved, "utf8")).has(decodeURIComponent(anchor))) return `points at a missing heading (${target})`;
  }
  return null;
}

/** `.md` file names a Markdown text mentions (links, prose or code) that the repository lacks. */
export function unknownMarkdownNames(markdown: string, known: Set<string>): string[] {
  const names = [...markdown.matchAll(/[\w.-]+\.md\b/g)].map((m) => m[0]);
  return [...new Set(names.filter((name) => !known.has(basename(name))))];
}

describe("documentation links", () => {
  it("the checker refuses links that leave the repository or miss, and passes good ones", () => {
    assert.deepEqual(linkTargets("see [a](docs/api.md), `[b](x.md)`, [c](https://example.com \"t\")\n```\n[d](y.md)\n```\n[e]: ../out.md"), [
      "docs/api.md", "https://example.com", "../out.md",
    ]);
    assert.match(linkProblem("README.md", "../shared/spec/service-spec.md") ?? "", /leaves the repository/);
    assert.match(linkProblem("docs/api.md", "../../x.md") ?? "", /leaves the repository/);
    assert.match(linkProblem("README.md", "/../x.md") ?? "", /leaves the repository/);
    assert.match(linkProblem("docs/api.md", "nothing-here.md") ?? "", /missing file/);
    assert.equal(linkProblem("README.md", "https://example.com/x"), null);
    assert.equal(linkProblem("README.md", "docs/"), null);
  });

  it("the checker refuses anchors to headings that do not exist", () => {
    assert.equal(linkProblem("docs/api.md", "api.md#limits"), null);
    assert.equal(linkProblem("docs/api.md", "#limits"), null);
    assert.match(linkProblem("docs/api.md", "#no-such-heading") ?? "", /missing heading/);
    assert.match(linkProblem("README.md", "docs/api.md#no-such-heading") ?? "", /missing heading/);
    const slugs = anchors("# A title\n## The path of one submission, hop by hop\n## `GET /api/result/{id}`\n## Twice\n## Twice\n```\n# not a heading\n```\n");
    assert.deepEqual([...slugs], ["a-title", "the-path-of-one-submission-hop-by-hop", "get-apiresultid", "twice", "twice-1"]);
  });

  it("the checker finds .md names the repository does not have, wherever they are written", () => {
    const known = new Set(["api.md", "README.md"]);
    assert.deepEqual(unknownMarkdownNames("see ../shared/DESIGN.md §2 and `spec/service-spec.md`, [x](docs/api.md)", known), [
      "DESIGN.md", "service-spec.md",
    ]);
  });

  it("every relative link in the repository's Markdown stays inside it and resolves", () => {
    const files = markdownFiles();
    assert.ok(files.includes("README.md"), "README.md is checked");
    assert.ok(files.includes("fleet/launcher/PROTOCOL.md"), "Markdown outside docs/ is checked too");
    const problems = files.flatMap((file) =>
      linkTargets(readFileSync(join(ROOT, file), "utf8")).flatMap((target) => {
        const problem = linkProblem(file, target);
        return problem ? [`${file}: ${problem}`] : [];
      }),
    );
    assert.deepEqual(problems, []);
  });

  it("no Markdown names a .md file that is not in the repository", () => {
    const files = markdownFiles();
    const known = new Set(files.map((file) => basename(file)));
    const problems = files.flatMap((file) => unknownMarkdownNames(readFileSync(join(ROOT, file), "utf8"), known).map((name) => `${file}: ${name}`));
    assert.deepEqual(problems, []);
  });
});
