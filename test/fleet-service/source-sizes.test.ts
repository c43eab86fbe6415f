// The node's code stays in small pieces: no file of fleet/src over 400 lines, no function over 80
// (docs/fleet-node.md, "Code layout"). ESLint's core max-lines rules count every line (blank and
// comment lines too) over Node's own type stripping, which keeps every line in place (see
// test/docs/regexp-lint.test.ts for why not typescript-eslint).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { ESLint } from "eslint";

const ROOT = resolve(import.meta.dirname, "..", "..");
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

function fleetSources(): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", "fleet/src"], { cwd: ROOT, encoding: "utf8" });
  return listed.split("\n").filter((path) => path.endsWith(".ts") && !path.endsWith(".d.ts"));
}

test(`fleet/src: no file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}`, { timeout: 120_000 }, async () => {
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [{
      files: ["**/*.ts"],
      languageOptions: { ecmaVersion: "latest", sourceType: "module" },
      linterOptions: { reportUnusedDisableDirectives: "off" },
      rules: {
        "max-lines": ["error", { max: MAX_FILE_LINES, skipBlankLines: false, skipComments: false }],
        "max-lines-per-function": ["error", { max: MAX_FUNCTION_LINES, skipBlankLines: false, skipComments: false, IIFEs: true }],
      },
    }],
  });
  const files = fleetSources();
  assert.ok(files.length > 50, `found ${files.length} files`);
  const problems: string[] = [];
  for (const path of files) {
    const js = stripTypeScriptTypes(readFileSync(join(ROOT, path), "utf8"), { mode: "strip" });
    const [result] = await eslint.lintText(js, { filePath: join(ROOT, path) });
    for (const message of result?.messages ?? []) problems.push(`${path}:${message.line}: ${message.ruleId ?? "parse"}: ${message.message}`);
  }
  assert.deepEqual(problems, [], `too large:\n${problems.join("\n")}`);
});
