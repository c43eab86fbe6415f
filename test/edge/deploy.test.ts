// The production bundle builds without an account: `wrangler deploy --dry-run --outdir <tmp>`.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { ROOT, cleanup, tempDir } from "./harness.ts";

it("wrangler deploy --dry-run builds the production bundle", () => {
  const out = tempDir("deploy");
  try {
    const log = execFileSync(join(ROOT, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", out, "--config", join(ROOT, "wrangler.toml")], {
      cwd: ROOT, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" }, stdio: ["ignore", "pipe", "pipe"],
    });
    assert.match(log, /--dry-run: exiting now/);
    const bundle = join(out, "index.js");
    assert.ok(existsSync(bundle));
    assert.ok(statSync(bundle).size > 10_000);
    const code = readFileSync(bundle, "utf8");
    const exported = /export\s*\{([^}]*)\}/.exec(code)?.[1] ?? "";
    for (const cls of ["KeyDO", "SubmissionDO", "FleetDO"]) assert.match(exported, new RegExp(`\\b${cls}\\b`));
  } finally {
    cleanup(out);
  }
});
