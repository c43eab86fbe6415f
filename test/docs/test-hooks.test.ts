// Every test file takes `before` and `after` from test/hooks.ts, whose `after` waits for the
// `before` hooks already started: with node:test's own, a file run with a name pattern that matches
// nothing tears down what is still being built and never ends (docs/testing.md, "Running a part").
import assert from "node:assert/strict";
import { globSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";

const ROOT = join(import.meta.dirname, "..", "..");

it("no test file takes before or after from node:test", () => {
  const offenders = globSync("test/**/*.ts", { cwd: ROOT }).filter((file) => {
    if (file === join("test", "hooks.ts")) return false;
    const imported = /import \{([^}]*)\} from "node:test"/.exec(readFileSync(join(ROOT, file), "utf8"))?.[1] ?? "";
    return imported.split(",").some((name) => ["before", "after"].includes(name.trim()));
  });
  assert.deepEqual(offenders, []);
});
