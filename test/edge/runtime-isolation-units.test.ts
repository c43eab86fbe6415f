// The isolation published per runtime (GET /api/runtimes): the controls every ready node offering
// it enforces, and every policy, cgroup version and CPU mode among them.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { withIsolation } from "../../edge/src/registry/runtime-isolation.ts";

const runtime = (language: string, version: string) => ({ language, version, aliases: [], default: true, compiled: false, libraries: [] });
const node = (languages: [string, string][], controls: string[], seccompPolicy: string, cgroupVersion = "v2", cpuMode = "shared") => ({
  languages: languages.map(([name, version]) => ({ name, version, aliases: [], default: true, compiled: false, libraries: [] })),
  isolationControls: controls, seccompPolicy, cgroupVersion, cpuMode,
});

describe("runtime isolation", () => {
  it("the intersection of the controls of the nodes offering the runtime, and every policy among them", () => {
    const [py, go] = withIsolation([runtime("python", "3.11.2"), runtime("go", "1.23.4")], [
      node([["python", "3.11.2"], ["go", "1.23.4"]], ["seccomp", "pid_namespace", "cgroup"], "deny-list/1", "v1", "dedicated"),
      node([["python", "3.11.2"]], ["pid_namespace", "seccomp"], "allow-list/1"),
    ]);
    assert.deepEqual(py!.isolation, { controls: ["pid_namespace", "seccomp"], seccomp_policies: ["allow-list/1", "deny-list/1"], cgroup_versions: ["v1", "v2"], cpu_modes: ["dedicated", "shared"] });
    assert.deepEqual(go!.isolation, { controls: ["cgroup", "pid_namespace", "seccomp"], seccomp_policies: ["deny-list/1"], cgroup_versions: ["v1"], cpu_modes: ["dedicated"] });
  });

  it("a node that publishes no controls (an older node) leaves none to count on", () => {
    const [py] = withIsolation([runtime("python", "3.11.2")], [node([["python", "3.11.2"]], ["seccomp"], "deny-list/1"), node([["python", "3.11.2"]], [], "")]);
    assert.deepEqual(py!.isolation.controls, []);
    assert.deepEqual(py!.isolation.seccomp_policies, ["deny-list/1", "unknown"]);
  });
});
