// Draining: by the Drain RPC (node keeps serving) and by SIGTERM (node exits once idle).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { protoPath as healthProtoPath } from "grpc-health-check";
import {
  collect,
  firstMessage,
  nativeClient,
  nativeExecute,
  nativeUnary,
  TOKEN,
  usingRealEngine,
  waitFor,
  type NativeClient,
  type TestNode,
  type WireMessage,
} from "./helpers.ts";
import { useNode } from "./use-node.ts";

const slow = (label: string) => `import time\ntime.sleep(1.5)\nprint('${label}')`;
const request = (code: string) => ({ submission_id: randomUUID(), language: "python", code, stdin: "" });

describe("Drain RPC", () => {
  let node: TestNode;
  let client: NativeClient;
  useNode({ slots: 1 }, (it) => ({ node, client } = it));

  test("running and queued runs finish, new work is refused, known ids still attach", async () => {
    const running = nativeExecute(client, request(slow("running")));
    await firstMessage(running, (message) => message.event === "started");
    const runningDone = collect(running);
    const queuedRequest = request("print('queued')");
    const queued = nativeExecute(client, queuedRequest);
    await firstMessage(queued, (message) => message.event === "queued");
    const queuedDone = collect(queued);

    const drained = await nativeUnary(client, "Drain", {});
    assert.equal(drained.in_flight, 2);

    const refused = await collect(nativeExecute(client, request("print('new')")));
    assert.equal(refused.error?.code, grpc.status.UNAVAILABLE);
    assert.match(refused.error!.details, /draining/);

    const attached = await collect(nativeExecute(client, queuedRequest)); // a retry is not new work
    assert.equal(attached.messages.at(-1)!.completed.result.stdout, "queued\n");

    assert.equal((await runningDone).messages.at(-1)!.completed.result.stdout, "running\n");
    assert.equal((await queuedDone).messages.at(-1)!.completed.result.verdict, "VERDICT_AC");
    const info = await nativeUnary(client, "NodeInfo", {});
    assert.equal(info.draining, true);
    assert.equal(info.free_slots, 1);
    assert.equal(info.queue_depth, 0);
  });
});

describe("SIGTERM", () => {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const entry = usingRealEngine ? "fleet/src/main.ts" : "test/fleet-service/fake-node-main.ts";

  test(`${entry}: drains, finishes running and queued work, refuses new work, exits 0`, async () => {
    const child = spawn(process.execPath, [entry], {
      cwd: root,
      env: {
        ...process.env,
        FLEET_TOKEN: TOKEN,
        FLEET_HOST: "127.0.0.1",
        FLEET_GRPC_PORT: "0",
        FLEET_GRPC_WEB_PORT: "0",
        FLEET_SLOTS: "1",
        FLEET_STATE_DIR: mkdtempSync(join(tmpdir(), "fleet-sigterm-")),
        FLEET_LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const logs: WireMessage[] = [];
    const listening = new Promise<WireMessage>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on("line", (line) => {
        const entry = JSON.parse(line);
        logs.push(entry);
        if (entry.msg === "fleet node listening") resolve(entry);
      });
      child.on("exit", () => reject(new Error("node exited before listening")));
    });
    try {
      const address = `127.0.0.1:${(await listening).grpc_port}`;
      const client = nativeClient(address);
      const health = new (grpc.loadPackageDefinition(protoLoader.loadSync(healthProtoPath, { enums: String })) as any).grpc.health.v1.Health(
        address,
        grpc.credentials.createInsecure(),
      );
      const healthStatus = () =>
        new Promise<string>((resolve, reject) =>
          health.Check({ service: "" }, (error: Error | null, response: { status: string }) => (error ? reject(error) : resolve(response.status))),
        );
      assert.equal(await healthStatus(), "SERVING");

      const running = nativeExecute(client, request(slow("running")));
      await firstMessage(running, (message) => message.event === "started");
      const runningDone = collect(running);
      const queued = nativeExecute(client, request("print('queued')"));
      await firstMessage(queued, (message) => message.event === "queued");
      const queuedDone = collect(queued);

      child.kill("SIGTERM");
      await waitFor(async () => (await healthStatus()) === "NOT_SERVING", "health NOT_SERVING");
      const refused = await collect(nativeExecute(client, request("print('new')")));
      assert.equal(refused.error?.code, grpc.status.UNAVAILABLE);

      assert.equal((await runningDone).messages.at(-1)!.completed.result.stdout, "running\n");
      assert.equal((await queuedDone).messages.at(-1)!.completed.result.stdout, "queued\n");
      assert.equal(await exited, 0);
      const drain = logs.find((line) => line.msg === "draining: new work is refused");
      assert.equal(drain?.in_flight, 2);
      assert.ok(logs.some((line) => line.msg === "fleet node stopped"));
      client.close();
      health.close();
    } finally {
      child.kill("SIGKILL");
    }
  });
});
