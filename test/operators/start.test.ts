// `npm start` as a user runs it, on non-default ports with its own state directory: the state
// file records the edge's URL and the CLI finds the stack through it.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { Agent, request } from "undici";
import { ROOT, freePort, tempDir } from "../edge/harness.ts";
import { cli } from "./cli-helpers.ts";
import { requireKernel } from "../helpers.ts";

let stack: ChildProcess | undefined;
let stateDir = "";
let edgePort = 0;
let output = "";
const insecure = new Agent({ connect: { rejectUnauthorized: false } });

/** The environment of a user who has set nothing of codecell's. */
function userEnv(): Record<string, string> {
  const env = { ...process.env } as Record<string, string>;
  for (const name of Object.keys(env)) if (/^(CODECELL_|EDGE_PORT|FLEET_|DEV_API_KEY)/.test(name)) delete env[name];
  return env;
}

function waitForOutput(pattern: RegExp, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not print ${pattern} within ${ms} ms:\n${output}`)), ms);
    const check = () => {
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    stack!.stdout!.on("data", check);
    stack!.on("exit", (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
    check();
  });
}

before(async () => {
  if (!requireKernel()) return;
  stateDir = tempDir("start");
  edgePort = await freePort();
  const [grpc, web] = [await freePort(), await freePort()];
  stack = spawn(process.execPath, [join(ROOT, "scripts", "start.ts")], {
    cwd: ROOT,
    env: { ...userEnv(), CODECELL_STATE_DIR: stateDir, EDGE_PORT: String(edgePort), FLEET_GRPC_PORT: String(grpc), FLEET_GRPC_WEB_PORT: String(web) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  stack.stdout!.on("data", (chunk) => (output += chunk));
  stack.stderr!.on("data", (chunk) => (output += chunk));
  await waitForOutput(/codecell is running/, 180_000);
});

after(async () => {
  if (stack?.pid && stack.exitCode === null) {
    const exited = new Promise((resolve) => stack!.once("exit", resolve));
    process.kill(stack.pid, "SIGTERM");
    await exited;
  }
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

describe("npm start on a non-default EDGE_PORT", { skip: !requireKernel() }, () => {
  it("records the edge's URL in the state file", () => {
    const state = JSON.parse(readFileSync(join(stateDir, "dev.json"), "utf8"));
    assert.equal(state.edge_url, `https://127.0.0.1:${edgePort}`);
    assert.match(output, new RegExp(`Base URL\\s+https://localhost:${edgePort}`));
  });

  it("the CLI reaches that edge with no URL or token given", async () => {
    const nodes = await cli(null, ["--json", "nodes", "list"], { CODECELL_STATE_DIR: stateDir });
    assert.equal(nodes.code, 0, nodes.stderr);
    assert.equal(nodes.json.length, 1);
    assert.equal(nodes.json[0].name, "local");
  });
});

describe("npm start keeps the stack up", { skip: !requireKernel() }, () => {
  const base = () => `https://127.0.0.1:${edgePort}`;
  const apiKey = () => JSON.parse(readFileSync(join(stateDir, "dev.json"), "utf8")).api_key as string;
  const get = (path: string) => request(`${base()}${path}`, { headers: { "x-api-key": apiKey() }, dispatcher: insecure });

  it("a killed fleet node is restarted and re-registered while the edge keeps serving", async () => {
    const pid = Number([...output.matchAll(/fleet node started \(pid (\d+)\)/g)].at(-1)?.[1]);
    assert.ok(pid > 0, output);
    process.kill(pid, "SIGKILL");
    // The edge answers throughout (health says degraded or ok; it never stops answering).
    const health = await get("/api/health");
    assert.equal(health.statusCode, 200);
    await health.body.json();
    const registrations = output.match(/fleet node registered/g)!.length;
    await waitForOutput(new RegExp(`(fleet node registered[^]*){${registrations + 1}}`), 120_000);
    assert.match(output, new RegExp(`fleet node started \\(pid (?!${pid}\\))\\d+\\)`));
    let ready = 0;
    for (let i = 0; i < 120 && ready !== 200; i++) {
      const r = await get("/api/health/ready");
      ready = r.statusCode;
      await r.body.text();
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.equal(ready, 200, "ready again after the restart");
    const run = await request(`${base()}/api/submit?wait=true`, {
      method: "POST", dispatcher: insecure,
      headers: { "x-api-key": apiKey(), "content-type": "application/json" },
      body: JSON.stringify({ language: "python", code: "print(6 * 7)" }),
    });
    const record = (await run.body.json()) as { verdict: string; stdout: string };
    assert.equal(run.statusCode, 200);
    assert.equal(record.verdict, "AC");
    assert.equal(record.stdout, "42\n");
  });
});
