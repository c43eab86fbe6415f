// Which edge every CLI command calls: --url, else CODECELL_URL, else the URL `npm start` recorded
// in the state file, else the default local stack (EDGE_PORT or 8787). Real CLI processes call
// small HTTP listeners that record who was asked; start.test.ts covers a real `npm start`.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { freePort, tempDir } from "../edge/harness.ts";
import { cli } from "./cli-helpers.ts";
import { apiKey, edgeUrl, operatorToken } from "../../cli/local-stack.ts";

interface Listener {
  url: string;
  calls: { path: string; authorization: string | undefined }[];
  server: Server;
}

async function listener(): Promise<Listener> {
  const calls: Listener["calls"] = [];
  const server = createServer((req, res) => {
    calls.push({ path: req.url ?? "", authorization: req.headers.authorization });
    res.writeHead(200, { "content-type": "application/json" }).end("[]");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, server };
}

let stateDir = "";
let fromState: Listener;
let fromEnv: Listener;
let fromFlag: Listener;

/** No CODECELL_* or EDGE_PORT from the caller's environment, and the test's own state dir. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  const clean: Record<string, string> = { CODECELL_URL: "", CODECELL_OPERATOR_TOKEN: "", CODECELL_API_KEY: "", EDGE_PORT: "" };
  return { ...clean, CODECELL_STATE_DIR: stateDir, ...extra };
}

before(async () => {
  [fromState, fromEnv, fromFlag] = [await listener(), await listener(), await listener()];
  stateDir = tempDir("cli-url");
  writeFileSync(join(stateDir, "dev.json"), JSON.stringify({ edge_url: `${fromState.url}/`, operator_token: "state-token", api_key: "sk_state" }));
});

after(() => {
  for (const l of [fromState, fromEnv, fromFlag]) l?.server.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

describe("the CLI's edge URL", () => {
  it("with nothing given, the URL and token the state file records", async () => {
    const r = await cli(null, ["--json", "nodes", "list"], env());
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json, []);
    assert.deepEqual(fromState.calls.at(-1), { path: "/admin/nodes", authorization: "Bearer state-token" });
  });

  it("CODECELL_URL overrides the state file", async () => {
    const before = fromState.calls.length;
    const r = await cli(null, ["--json", "projects", "list"], env({ CODECELL_URL: fromEnv.url }));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fromEnv.calls.at(-1)?.path, "/admin/projects");
    assert.equal(fromState.calls.length, before);
  });

  it("--url overrides the environment and the state file", async () => {
    const [stateCalls, envCalls] = [fromState.calls.length, fromEnv.calls.length];
    const r = await cli(null, ["--json", "--url", fromFlag.url, "--token", "flag-token", "keys", "list"], env({ CODECELL_URL: fromEnv.url }));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(fromFlag.calls.at(-1), { path: "/admin/keys", authorization: "Bearer flag-token" });
    assert.equal(fromState.calls.length, stateCalls);
    assert.equal(fromEnv.calls.length, envCalls);
  });

  it("with no state file, the default local stack on EDGE_PORT", async () => {
    const port = await freePort();
    const r = await cli(null, ["--json", "nodes", "list"], env({ CODECELL_STATE_DIR: join(stateDir, "none"), CODECELL_OPERATOR_TOKEN: "t", EDGE_PORT: String(port) }));
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, new RegExp(`cannot reach https://127\\.0\\.0\\.1:${port}`));
  });

  it("with no state file and no token, a clear error naming what to set", async () => {
    const r = await cli(null, ["nodes", "list"], env({ CODECELL_STATE_DIR: join(stateDir, "none") }));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no operator token: pass --token or set CODECELL_OPERATOR_TOKEN/);
  });

  it("resolves the same order for the URL, the operator token and the API key", () => {
    const local = { edge_url: "https://127.0.0.1:9100", operator_token: "op-state", api_key: "key-state" };
    assert.equal(edgeUrl("https://flag.example/", { CODECELL_URL: "https://env.example" }, local), "https://flag.example");
    assert.equal(edgeUrl(undefined, { CODECELL_URL: "https://env.example" }, local), "https://env.example");
    assert.equal(edgeUrl(undefined, {}, local), "https://127.0.0.1:9100");
    assert.equal(edgeUrl(undefined, {}, undefined), "https://127.0.0.1:8787");
    assert.equal(edgeUrl(undefined, { EDGE_PORT: "9200" }, undefined), "https://127.0.0.1:9200");
    assert.equal(operatorToken(undefined, { CODECELL_OPERATOR_TOKEN: "op-env" }, local), "op-env");
    assert.equal(operatorToken(undefined, {}, local), "op-state");
    assert.equal(apiKey("key-flag", { CODECELL_API_KEY: "key-env" }, local), "key-flag");
    assert.equal(apiKey(undefined, { CODECELL_API_KEY: "key-env" }, local), "key-env");
    assert.equal(apiKey(undefined, {}, local), "key-state");
    assert.equal(apiKey(undefined, {}, undefined), undefined);
  });
});
