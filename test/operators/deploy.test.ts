// What a fleet operator installs: the systemd unit restarts on failure, stops by SIGTERM to the
// enrollment command only (which drains), waits long enough for runs to finish, and reads its
// secrets from a file; the enrollment command and the install script are where the unit expects them.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ROOT } from "../edge/harness.ts";

function unit(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(join(ROOT, "deploy", "codecell-fleet.service"), "utf8").split("\n")) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

describe("deploy/", () => {
  it("the systemd unit restarts on failure and drains on stop", () => {
    const u = unit();
    assert.equal(u.Restart, "on-failure");
    assert.equal(u.KillSignal, "SIGTERM");
    assert.equal(u.KillMode, "mixed", "SIGTERM reaches only the enrollment command, which drains the node once");
    assert.ok(Number(u.TimeoutStopSec) >= 60, "long enough for compile (30 s) + run (10 s) with a queue behind");
    assert.equal(u.EnvironmentFile, "/etc/codecell/fleet.env");
    assert.match(u.ExecStart ?? "", /fleet\/src\/enroll\/main\.ts$/);
    assert.ok(existsSync(join(ROOT, "fleet", "src", "enroll", "main.ts")));
  });

  it("the install script and the settings example are sound", () => {
    assert.equal(spawnSync("bash", ["-n", join(ROOT, "deploy", "install-node.sh")]).status, 0);
    const env = readFileSync(join(ROOT, "deploy", "fleet.env.example"), "utf8");
    for (const v of ["CODECELL_EDGE_URL", "CODECELL_ENROLL_TOKEN_FILE", "CODECELL_NODE_URL", "FLEET_TLS_CERT", "FLEET_TOKEN_FILE"]) {
      assert.match(env, new RegExp(`^${v}=`, "m"));
    }
  });

  it("the enrollment command explains itself and refuses to start without an edge or a token", () => {
    const node = join(ROOT, "node_modules", ".bin", "node");
    const main = join(ROOT, "fleet", "src", "enroll", "main.ts");
    const help = spawnSync(node, ["--no-warnings", main, "--help"], { encoding: "utf8" });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--edge <url>/);
    const env = { ...process.env, CODECELL_EDGE_URL: "", CODECELL_ENROLL_TOKEN: "" };
    const noEdge = spawnSync(node, ["--no-warnings", main], { encoding: "utf8", env });
    assert.equal(noEdge.status, 2);
    assert.match(noEdge.stderr, /edge URL is required/);
    const noToken = spawnSync(node, ["--no-warnings", main, "--edge", "https://edge.example"], { encoding: "utf8", env });
    assert.equal(noToken.status, 2);
    assert.match(noToken.stderr, /enrollment token is required/);
    const http = spawnSync(node, ["--no-warnings", main, "--edge", "http://edge.example"], { encoding: "utf8", env });
    assert.equal(http.status, 2);
    assert.match(http.stderr, /must be https/);
  });
});
