// `npm run test:mutation`: StrykerJS over the core modules, one run per group of modules with only
// the fast tests that cover them (one node process per mutant, no workerd, no real kernel), then a
// score per module. `npm run test:mutation -- verdict` runs the groups whose name matches.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const REPORTS = join(ROOT, "reports", "mutation");

const GROUPS: { name: string; mutate: string[]; tests: string[] }[] = [
  {
    name: "verdict-output",
    mutate: ["fleet/src/sandbox/verdict.ts", "fleet/src/sandbox/output.ts"],
    tests: ["test/sandbox/verdict.test.ts", "test/sandbox/output.test.ts"],
  },
  {
    name: "cgroup",
    mutate: ["fleet/src/sandbox/cgroup/v1.ts", "fleet/src/sandbox/cgroup/v2.ts"],
    tests: ["test/sandbox/cgroup.test.ts", "test/sandbox/cgroup-v1.test.ts", "test/sandbox/cgroup-v2.test.ts"],
  },
  {
    name: "edge-lib",
    mutate: ["edge/src/lib/ratelimit.ts", "edge/src/lib/keys.ts", "edge/src/keys/api-key.ts", "edge/src/submit/validate.ts"],
    tests: ["test/edge/unit.test.ts", "test/edge/lib.test.ts"],
  },
  {
    name: "checker",
    mutate: [
      "fleet/src/judge/compare/checker.ts", "fleet/src/judge/compare/text-spans.ts", "fleet/src/judge/compare/numbers.ts",
      "fleet/src/judge/compare/identical.ts", "fleet/src/judge/compare/unordered.ts",
    ],
    tests: ["test/languages/checker.test.ts", "test/languages/checker-modes.test.ts"],
  },
  {
    name: "webhooks",
    mutate: ["edge/src/webhooks/signing.ts", "edge/src/webhooks/endpoint-url.ts"],
    tests: ["test/webhooks/unit.test.ts", "test/webhooks/url-rules.test.ts"],
  },
  {
    name: "compat",
    mutate: [
      "edge/src/compat/judge0/languages.ts", "edge/src/compat/judge0/statuses.ts", "edge/src/compat/judge0/to-native.ts",
      "edge/src/compat/judge0/from-native.ts", "edge/src/compat/piston/to-native.ts", "edge/src/compat/piston/from-native.ts",
      "edge/src/compat/credentials.ts", "edge/src/compat/build-failure.ts",
    ],
    tests: [
      "test/edge/compat-judge0-ids-units.test.ts", "test/edge/compat-judge0-units.test.ts", "test/edge/compat-piston-units.test.ts",
      "test/edge/compat-credentials-units.test.ts", "test/edge/judge0-fidelity.test.ts",
    ],
  },
  {
    name: "request-rules",
    mutate: ["proto/submission-rules.ts", "proto/compiler-options.ts", "proto/runtimes.ts"],
    tests: ["test/languages/request-rules.test.ts", "test/edge/edge-units.test.ts"],
  },
];

const only = process.argv[2];
mkdirSync(REPORTS, { recursive: true });
const scores: string[] = [];
let failed = false;
for (const group of GROUPS.filter((g) => !only || g.name.includes(only))) {
  const report = join(REPORTS, `${group.name}.json`);
  const config = join(REPORTS, `${group.name}.stryker.json`);
  writeFileSync(config, JSON.stringify({
    testRunner: "command",
    commandRunner: { command: `node --test --test-isolation=none ${group.tests.join(" ")}` },
    mutate: group.mutate,
    ignorePatterns: [".state", "test-artifacts", "reports", ".stryker-tmp", "node_modules/.cache"],
    // TypeScript 7 has no JS API for Stryker's tsconfig rewriting; Node runs the .ts files directly.
    tsconfigFile: "no-tsconfig-for-stryker.json",
    coverageAnalysis: "off",
    concurrency: 2,
    reporters: ["clear-text", "json"],
    jsonReporter: { fileName: report },
    clearTextReporter: { allowColor: false, logTests: false, reportMutants: true },
    tempDirName: ".stryker-tmp",
    cleanTempDir: "always",
  }, null, 2));
  const started = Date.now();
  const run = spawnSync(join(ROOT, "node_modules", ".bin", "stryker"), ["run", config], { cwd: ROOT, stdio: "inherit" });
  if (run.status !== 0) failed = true;
  const result = JSON.parse(readFileSync(report, "utf8")) as { files: Record<string, { mutants: { status: string }[] }> };
  for (const [file, { mutants }] of Object.entries(result.files)) {
    const count = (status: string) => mutants.filter((m) => m.status === status).length;
    const detected = count("Killed") + count("Timeout");
    const valid = detected + count("Survived") + count("NoCoverage");
    const score = ((100 * detected) / Math.max(1, valid)).toFixed(1);
    scores.push(`${file.padEnd(40)} ${score.padStart(5)}%  (${detected}/${valid} killed, ${count("Survived")} survived)`);
  }
  scores.push(`  ${group.name}: ${Math.round((Date.now() - started) / 1000)} s`);
}
console.log(`\nMutation score per module\n${scores.join("\n")}`);
process.exit(failed ? 1 : 0);
