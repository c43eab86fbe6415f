// The repository stands alone: every relative link in its Markdown stays inside it and points at
// a file or folder that exists (a `#heading` part is not checked).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";

const ROOT = resolve(import.meta.dirname, "..", "..");

function markdownFiles(): string[] {
  const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.md"], { cwd: ROOT, encoding: "utf8" });
  return tracked.split("\n").filter((path) => path && !path.startsWith("node_modules/") && existsSync(join(ROOT, path)));
}

/** Link targets of `[text](target)` and `[label]: target`, outside fenced and inline code. */
export function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^]*?^\1/gm, "").replace(/`[^`\n]*`/g, "");
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const references = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1]!);
  return [...inline, ...references];
}

/** Why a link is broken, or null: external URLs and same-page anchors are not checked here. */
export function linkProblem(fromFile: string, target: string, root = ROOT): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")) return null;
  const path = decodeURIComponent(target.split("#")[0]!.split("?")[0]!);
  const resolved = path.startsWith("/") ? join(root, path) : resolve(dirname(join(root, fromFile)), path);
  const inside = relative(root, resolved);
  if (inside.startsWith("..") || resolve(root, inside) !== resolved) return `leaves the repository (${target})`;
  if (!existsSync(resolved)) return `points at a missing file (${target})`;
  return null;
}

describe("documentation links", () => {
  it("the checker refuses links that leave the repository or miss, and passes good ones", () => {
    assert.deepEqual(linkTargets("see [a](docs/api.md), `[b](x.md)`, [c](https://example.com \"t\")\n```\n[d](y.md)\n```\n[e]: ../out.md"), [
      "docs/api.md", "https://example.com", "../out.md",
    ]);
    assert.match(linkProblem("README.md", "../shared/spec/service-spec.md") ?? "", /leaves the repository/);
    assert.match(linkProblem("docs/api.md", "../../x.md") ?? "", /leaves the repository/);
    assert.match(linkProblem("docs/api.md", "nothing-here.md") ?? "", /missing file/);
    assert.equal(linkProblem("docs/api.md", "operators.md#keys"), null);
    assert.equal(linkProblem("README.md", "https://example.com/x"), null);
  });

  it("every relative link in the repository's Markdown stays inside it and resolves", () => {
    const files = markdownFiles();
    assert.ok(files.includes("README.md"), "README.md is checked");
    const problems = files.flatMap((file) =>
      linkTargets(readFileSync(join(ROOT, file), "utf8")).flatMap((target) => {
        const problem = linkProblem(file, target);
        return problem ? [`${file}: ${problem}`] : [];
      }),
    );
    assert.deepEqual(problems, []);
  });
});
