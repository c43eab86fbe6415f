// The fleet credential guards every FleetService call on both transports; health does not need it.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { protoPath as healthProtoPath } from "grpc-health-check";
import { Status } from "nice-grpc-common";
import {
  authMetadata,
  collect,
  nativeExecute,
  nativeUnary,
  webClient,
  type NativeClient,
  type TestNode,
} from "./helpers.ts";
import { useNode } from "./use-node.ts";

const execute = () => ({ submission_id: randomUUID(), language: "python", code: "print(1)", stdin: "" });

describe("fleet credential", () => {
  let node: TestNode;
  let client: NativeClient;
  useNode({}, (it) => ({ node, client } = it));

  const credentials: [string, grpc.Metadata, RegExp][] = [
    ["no credential", new grpc.Metadata(), /missing fleet credential/],
    ["a wrong token", authMetadata("wrong-token-wrong-token"), /invalid fleet credential/],
    ["a prefix of the token", authMetadata("test-fleet"), /invalid fleet credential/],
    ["another scheme", (() => { const m = new grpc.Metadata(); m.set("authorization", "Basic abc"); return m; })(), /invalid fleet credential/],
  ];

  for (const [name, metadata, message] of credentials) {
    test(`native gRPC with ${name}: UNAUTHENTICATED on every FleetService method, nothing runs`, async () => {
      const before = node.engine.executed.length;
      const stream = await collect(nativeExecute(client, execute(), { metadata }));
      assert.equal(stream.error?.code, grpc.status.UNAUTHENTICATED);
      assert.match(stream.error!.details, message);
      for (const method of ["GetResult", "NodeInfo", "Drain"]) {
        const request = method === "GetResult" ? { submission_id: randomUUID() } : {};
        await assert.rejects(nativeUnary(client, method, request, metadata), { code: grpc.status.UNAUTHENTICATED }, method);
      }
      assert.equal(node.engine.executed.length, before);
      assert.equal(node.server.node.draining, false, "an unauthenticated Drain did nothing");
    });
  }

  for (const [name, token] of [["no credential", null], ["a wrong token", "wrong-token-wrong-token"]] as const) {
    test(`gRPC-Web with ${name}: UNAUTHENTICATED on every FleetService method`, async () => {
      const web = webClient(node.webUrl, token);
      await assert.rejects(
        (async () => {
          for await (const _event of web.execute({ submissionId: randomUUID(), language: "python", code: "print(1)", stdin: "" }));
        })(),
        { code: Status.UNAUTHENTICATED },
      );
      await assert.rejects(web.getResult({ submissionId: randomUUID() }), { code: Status.UNAUTHENTICATED });
      await assert.rejects(web.nodeInfo({}), { code: Status.UNAUTHENTICATED });
      await assert.rejects(web.drain({}), { code: Status.UNAUTHENTICATED });
      assert.equal(node.server.node.draining, false);
    });
  }

  test("the right token works on both transports", async () => {
    assert.equal((await nativeUnary(client, "NodeInfo", {})).node_id, "test-node");
    assert.equal((await webClient(node.webUrl).nodeInfo({})).nodeId, "test-node");
  });

  test("grpc.health.v1 answers without a credential", async () => {
    const health = grpc.loadPackageDefinition(protoLoader.loadSync(healthProtoPath, { enums: String })) as any;
    const healthClient = new health.grpc.health.v1.Health(node.grpcAddress, grpc.credentials.createInsecure());
    const response = await new Promise<any>((resolve, reject) =>
      healthClient.Check({ service: "" }, (error: Error | null, value: unknown) => (error ? reject(error) : resolve(value))),
    );
    assert.equal(response.status, "SERVING");
    healthClient.close();
  });
});
