// GET /api/runtimes against the real Worker and a real fleet node: every (language, version) the
// node offers, with aliases, one default per language, and the curated libraries; auth and rate
// limit as every endpoint. Then a submission that names a version runs on that toolchain.
import assert from "node:assert/strict";
import { existsSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { REQUIRED_CONTROLS } from "../../fleet/src/sandbox/sandbox.ts";
import { Client, useStack } from "./harness.ts";
import { SECCOMP_POLICY_VERSION } from "../../fleet/src/sandbox/policy.ts";

interface RuntimeEntry {
  language: string;
  version: string;
  aliases: string[];
  default: boolean;
  compiled: boolean;
  libraries: string[];
  isolation: { controls: string[]; seccomp_policies: string[]; cgroup_versions: string[]; cpu_modes: string[] };
}

const client = async () => new Client(stack.edge.base, (await stack.ops.newKey()).key);

const stack = useStack();

/** Distinct JDKs under /usr/lib/jvm: Debian 12 has only OpenJDK 17; a newer one comes with the machine. */
function hostJdks(): number {
  const homes = new Set<string>();
  for (const name of readdirSync("/usr/lib/jvm")) {
    if (existsSync(join("/usr/lib/jvm", name, "bin", "javac"))) homes.add(realpathSync(join("/usr/lib/jvm", name)));
  }
  return homes.size;
}

const GO_VERSION = 'package main\n\nimport (\n\t"fmt"\n\t"runtime"\n)\n\nfunc main() { fmt.Println(runtime.Version()) }\n';

describe("GET /api/runtimes", () => {
  it("names, per runtime, the isolation controls every node serving it enforces and their seccomp policy", async () => {
    const list = (await (await client()).call("GET", "/api/runtimes")).json as RuntimeEntry[];
    const cgroup = existsSync("/sys/fs/cgroup/cgroup.controllers") ? "v2" : "v1";
    for (const entry of list) {
      const where = `${entry.language} ${entry.version}`;
      assert.deepEqual(entry.isolation.controls, [...REQUIRED_CONTROLS].sort(), where);
      assert.deepEqual(entry.isolation.seccomp_policies, [SECCOMP_POLICY_VERSION], where);
      assert.deepEqual(entry.isolation.cgroup_versions, [cgroup], where);
      assert.equal(entry.isolation.cpu_modes.length, 1, where);
      assert.match(entry.isolation.cpu_modes[0]!, /^(dedicated|shared)$/, where);
    }
  });

  it("lists every version the node offers: two or more for go, javascript and java, one default each", async () => {
    const r = await (await client()).call("GET", "/api/runtimes");
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers["content-type"]), /^application\/json/);
    assert.equal(r.headers["ratelimit-limit"], "60");
    const list = r.json as RuntimeEntry[];
    assert.ok(Array.isArray(list) && list.length > 0, r.text);
    for (const entry of list) {
      assert.deepEqual(Object.keys(entry).sort(), ["aliases", "compiled", "default", "isolation", "language", "libraries", "version"]);
      assert.match(entry.version, /^\d+\.\d+\.\d+$/, JSON.stringify(entry));
    }
    const byLanguage = new Map<string, RuntimeEntry[]>();
    for (const entry of list) byLanguage.set(entry.language, [...(byLanguage.get(entry.language) ?? []), entry]);
    // /api/languages and /api/runtimes agree on the languages.
    const languages = (await (await client()).call("GET", "/api/languages")).json as string[];
    assert.deepEqual([...byLanguage.keys()], languages);
    for (const [language, versions] of byLanguage) {
      assert.equal(versions.filter((v) => v.default).length, 1, `${language}: one default`);
    }
    const versionsOf = (language: string) => byLanguage.get(language)?.map((v) => v.version) ?? [];
    assert.ok(versionsOf("go").length >= 2, `go: ${versionsOf("go")}`);
    assert.ok(versionsOf("javascript").length >= 2, `javascript: ${versionsOf("javascript")}`);
    assert.equal(versionsOf("java").length, hostJdks(), `java: ${versionsOf("java")}`);
    assert.ok(versionsOf("java").length >= 2, `java: ${versionsOf("java")} (needs a second JDK under /usr/lib/jvm)`);
    const go = byLanguage.get("go")!;
    assert.ok(go.every((v) => v.compiled) && byLanguage.get("javascript")!.every((v) => !v.compiled));
    assert.ok(go.some((v) => v.aliases.includes(`go${v.version}`) && v.aliases.includes(v.version.split(".").slice(0, 2).join("."))), JSON.stringify(go));
    assert.ok(byLanguage.get("python")!.find((v) => v.default)!.libraries.includes("numpy"));
  });

  it("needs a key, counts against the rate limit, and answers other methods with 405", async () => {
    const anon = await new Client(stack.edge.base, null).call("GET", "/api/runtimes");
    assert.equal(anon.status, 401);
    assert.equal(anon.json.error, "unauthorized");
    const c = await client();
    const first = await c.call("GET", "/api/runtimes");
    const second = await c.call("GET", "/api/runtimes");
    assert.equal(Number(second.headers["ratelimit-remaining"]), Number(first.headers["ratelimit-remaining"]) - 1);
    const post = await c.call("POST", "/api/runtimes", { body: {} });
    assert.equal(post.status, 405);
    assert.equal(post.json.error, "method not allowed");
  });
});

describe("a submission's version", () => {
  it("runs on the version it names (by version and by alias); without one, the default", async () => {
    const c = await client();
    const go = ((await c.call("GET", "/api/runtimes")).json as RuntimeEntry[]).filter((r) => r.language === "go");
    const other = go.find((v) => !v.default)!;
    const fallback = go.find((v) => v.default)!;
    for (const [version, expected] of [[other.version, other], [other.aliases[0]!, other], [undefined, fallback]] as const) {
      const r = await c.submit({ language: "go", code: GO_VERSION, ...(version ? { version } : {}) }, { wait: true });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.verdict, "AC", r.text);
      assert.equal(r.json.stdout, `go${expected.version}\n`);
      if (version) assert.equal(r.json.version, expected.version);
    }
  });

  it("an unknown version is a 400 naming the versions available, and nothing runs", async () => {
    const c = await client();
    const r = await c.submit({ language: "go", code: GO_VERSION, version: "0.9" });
    assert.equal(r.status, 400, r.text);
    assert.match(`${r.json.error} ${r.json.message ?? ""}`, /version/);
    const go = ((await c.call("GET", "/api/runtimes")).json as RuntimeEntry[]).filter((v) => v.language === "go");
    for (const v of go) assert.match(`${r.json.error} ${r.json.message ?? ""}`, new RegExp(v.version.replaceAll(".", "\\.")));
  });
});
