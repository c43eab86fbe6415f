// Faults inside the node: an unexpected exception is INTERNAL with a generic message (details only in
// the log); an engine that fails mid-run still ends the run, as IE. Faults need injecting, so this
// file wraps the engine with a switch that makes it throw.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { after, before } from "../hooks.ts";
import { status } from "@grpc/grpc-js";
import { Status } from "nice-grpc-common";
import { collect, nativeClient, nativeExecute, nativeUnary, startTestNode, webClient, type NativeClient, type TestNode } from "./helpers.ts";

describe("error mapping", () => {
  let node: TestNode;
  let client: NativeClient;
  const faults = { languages: false, execute: false };
  before(async () => {
    node = await startTestNode();
    const { engine } = node;
    const languages = engine.languages.bind(engine);
    const execute = engine.execute.bind(engine);
    engine.languages = () => {
      if (faults.languages) throw new Error("secret detail: /etc/shadow");
      return languages();
    };
    engine.execute = async (request, signal) => {
      if (faults.execute) throw new Error("secret detail: launcher exploded");
      return execute(request, signal);
    };
    client = nativeClient(node.grpcAddress);
  });
  after(async () => {
    client.close();
    await node.close();
  });

  test("an unexpected exception is INTERNAL \"internal error\" on both transports, nothing leaks", async () => {
    faults.languages = true;
    try {
      const request = { submission_id: randomUUID(), language: "python", code: "print(1)", stdin: "" };
      const { error } = await collect(nativeExecute(client, request));
      assert.equal(error?.code, status.INTERNAL);
      assert.equal(error?.details, "internal error");
      await assert.rejects(nativeUnary(client, "NodeInfo", {}), { code: status.INTERNAL, details: "internal error" });
      await assert.rejects(webClient(node.webUrl).nodeInfo({}), { code: Status.INTERNAL, details: "internal error" });
    } finally {
      faults.languages = false;
    }
  });

  test("an engine failure during a run ends the run as IE, kept for GetResult", async () => {
    faults.execute = true;
    try {
      const id = randomUUID();
      const { messages, error } = await collect(nativeExecute(client, { submission_id: id, language: "python", code: "print(1)", stdin: "" }));
      assert.equal(error, undefined);
      const result = messages.at(-1)!.completed.result;
      assert.equal(result.verdict, "VERDICT_IE");
      assert.equal(result.error_message, "internal error");
      assert.equal(result.evidence.verdict_cause, "internal_error");
      assert.ok(!JSON.stringify(result).includes("secret"));
      assert.equal((await nativeUnary(client, "GetResult", { submission_id: id })).result.verdict, "VERDICT_IE");
    } finally {
      faults.execute = false;
    }
  });

  test("large outputs arrive whole on both transports", async () => {
    const code = "import sys\nsys.stdout.write('x' * 900000)";
    const native = await collect(nativeExecute(client, { submission_id: randomUUID(), language: "python", code, stdin: "" }));
    assert.equal(native.messages.at(-1)!.completed.result.stdout.length, 900000);
    let webStdout = "";
    for await (const event of webClient(node.webUrl).execute({ submissionId: randomUUID(), language: "python", code, stdin: "" })) {
      webStdout = event.completed?.result?.stdout ?? webStdout;
    }
    assert.equal(webStdout.length, 900000);
  });
});
