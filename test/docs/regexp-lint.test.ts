// No regex in the service's code can backtrack super-linearly: a tenant's bytes cost bounded,
// linear work. ESLint with eslint-plugin-regexp's two ReDoS rules runs over every TypeScript
// file of edge/, fleet/, proto/, cli/ and client/ (generated code and tests aside) and fails
// listing file:line:column: rule: message.
//
// typescript-eslint cannot parse here: its parser needs TypeScript's JavaScript compiler API,
// which TypeScript 7 (the project's, a native compiler) no longer has, and it refuses
// TypeScript >= 6.1 as a peer. So each file goes through Node's own type stripping
// (module.stripTypeScriptTypes, the transform that runs this code), which blanks the types out
// in place: every regex keeps its line and column, and ESLint's default parser reads the rest.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { ESLint, type Linter } from "eslint";
import regexp from "eslint-plugin-regexp";

const ROOT = resolve(import.meta.dirname, "..", "..");
const FOLDERS = ["edge", "fleet", "proto", "cli", "client"];
/** Generated (proto/gen: ts-proto's output) or not ours. */
const SKIPPED = [/^proto\/gen\//, /(^|\/)node_modules\//, /(^|\/)dist\//];

/**
 * - `no-super-linear-backtracking`: a regex whose own quantifiers can share characters, so one
 *   attempt tries a polynomial number of ways (`\d+\.?\d*` on a run of digits).
 * - `no-super-linear-move`: a regex whose one attempt is linear but that is tried from every
 *   position of the input (`/[ \t]+$/` on a run of blanks followed by a letter: each start scans
 *   to the end of the run, quadratic in all); `^`-anchored and sticky regexes are exempt. When it
 *   was added it reported nine regexes, all of them really quadratic (`/\/+$/` on `////…x`):
 *   over request bytes the checker's trim, Java's package rule and the edge's path trim, the rest
 *   over configuration or a digest; each was rewritten (proto/trim.ts) rather than the rule dropped.
 * `report: "potential"` also reports what only a rejecting suffix the analysis cannot see would
 * trigger; fragments (`ignorePartial: false`) are checked too. A RegExp built from a string known
 * only at run time cannot be analysed: the code has none over request bytes.
 */
const RULES: Linter.RulesRecord = {
  "regexp/no-super-linear-backtracking": ["error", { report: "potential" }],
  "regexp/no-super-linear-move": ["error", { report: "potential", ignoreSticky: true, ignorePartial: false }],
};

/** Every TypeScript or JavaScript file (tracked or new, not ignored) under the folders; cli/codecell is a shell script. */
function sourceFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", ...FOLDERS], { cwd: ROOT, encoding: "utf8" });
  return listed
    .split("\n")
    .filter((path) => /\.(?:ts|mts|cts|js|mjs)$/.test(path) && !path.endsWith(".d.ts"))
    .filter((path) => !SKIPPED.some((skip) => skip.test(path)) && existsSync(join(ROOT, path)));
}

describe("regexes: no super-linear backtracking", () => {
  it("every regex over the service's input runs in linear time", { timeout: 300_000 }, async () => {
    const eslint = new ESLint({
      cwd: ROOT,
      overrideConfigFile: true,
      overrideConfig: [{
        files: ["**/*.ts", "**/*.mts", "**/*.cts", "**/*.js", "**/*.mjs"],
        languageOptions: { ecmaVersion: "latest", sourceType: "module" },
        linterOptions: { reportUnusedDisableDirectives: "off" },
        plugins: { regexp },
        rules: RULES,
      }],
    });
    const files = sourceFiles();
    assert.ok(files.length > 100, `found ${files.length} files`);
    const problems: string[] = [];
    for (const path of files) {
      const code = readFileSync(join(ROOT, path), "utf8");
      let js: string;
      try {
        js = path.endsWith("ts") ? stripTypeScriptTypes(code, { mode: "strip" }) : code;
      } catch (error) {
        problems.push(`${path}: type stripping failed: ${(error as Error).message}`);
        continue;
      }
      const [result] = await eslint.lintText(js, { filePath: join(ROOT, path) });
      for (const message of result?.messages ?? []) {
        problems.push(`${path}:${message.line}:${message.column}: ${message.ruleId ?? "parse"}: ${message.message}`);
      }
    }
    assert.deepEqual(problems, [], `regexes that can backtrack super-linearly:\n${problems.join("\n")}`);
  });
});
