// The code stays in small pieces (docs/testing.md, "Size rule"): no TypeScript file git lists that
// is neither generated nor a test is over 400 lines, and none of its functions over 80 (edge/src,
// fleet/src, cli, client, proto, scripts, bench, shared-fixtures and the test helpers each must have
// such a file, or the list is wrong); no test file over 400 lines (a test file's outer callback is
// a suite container, so its functions are not counted). ESLint's core max-lines rules count every
// line (blank and comment lines too) over Node's own type stripping, which keeps every line in
// place (see regexp-lint.test.ts for why not typescript-eslint). The launcher's C is checked by
// test/sandbox/launcher-structure.test.ts.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { ESLint, type Linter } from "eslint";

const ROOT = resolve(import.meta.dirname, "..", "..");
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;
/** Generated, so not held to the rule: ts-proto's output (proto/gen), the OpenAPI client (*.gen.ts), the SDK's build (client/dist). */
const GENERATED = [/^proto\/gen\//, /\.gen\.ts$/, /^client\/dist\//];
function typeScriptFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", "*.ts"], { cwd: ROOT, encoding: "utf8" });
  return listed.split("\n").filter((path) => path !== "" && !GENERATED.some((re) => re.test(path)));
}

function linter(rules: Linter.RulesRecord): ESLint {
  return new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [{
      files: ["**/*.ts"],
      languageOptions: { ecmaVersion: "latest", sourceType: "module" },
      linterOptions: { reportUnusedDisableDirectives: "off" },
      rules,
    }],
  });
}

async function problems(eslint: ESLint, files: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of files) {
    const js = stripTypeScriptTypes(readFileSync(join(ROOT, path), "utf8"), { mode: "strip" });
    const [result] = await eslint.lintText(js, { filePath: join(ROOT, path) });
    for (const message of result?.messages ?? []) found.push(`${path}:${message.line}: ${message.ruleId ?? "parse"}: ${message.message}`);
  }
  return found;
}

const maxLines: Linter.RuleEntry = ["error", { max: MAX_FILE_LINES, skipBlankLines: false, skipComments: false }];
const files = typeScriptFiles();
const tests = files.filter((path) => path.endsWith(".test.ts"));
const code = files.filter((path) => !path.endsWith(".test.ts"));

test(`code: no file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}`, { timeout: 300_000 }, async () => {
  for (const folder of ["edge/src/", "fleet/src/", "cli/", "client/", "proto/", "scripts/", "bench/", "shared-fixtures/", "test/"]) {
    assert.ok(code.some((path) => path.startsWith(folder)), `no file found under ${folder}`);
  }
  const eslint = linter({
    "max-lines": maxLines,
    "max-lines-per-function": ["error", { max: MAX_FUNCTION_LINES, skipBlankLines: false, skipComments: false, IIFEs: true }],
  });
  const found = await problems(eslint, code);
  assert.deepEqual(found, [], `too large:\n${found.join("\n")}`);
});

test(`tests: no file over ${MAX_FILE_LINES} lines`, { timeout: 300_000 }, async () => {
  assert.ok(tests.length > 100, `found ${tests.length} test files`);
  const found = await problems(linter({ "max-lines": maxLines }), tests);
  assert.deepEqual(found, [], `too large:\n${found.join("\n")}`);
});
