// grpc.health.v1 and server reflection (v1 and v1alpha), with plain grpc-js clients.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { after, before } from "../hooks.ts";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { protoPath as healthProtoPath } from "grpc-health-check";
import { authMetadata, startTestNode, type TestNode } from "./helpers.ts";

const reflectionProtos = join(dirname(createRequire(import.meta.url).resolve("@grpc/reflection/package.json")), "build", "proto");
const options = { enums: String, keepCase: true, defaults: true, oneofs: true, includeDirs: [reflectionProtos] };

function reflect(address: string, version: "v1" | "v1alpha", request: object, metadata = authMetadata()): Promise<any> {
  const loaded = grpc.loadPackageDefinition(protoLoader.loadSync(`grpc/reflection/${version}/reflection.proto`, options)) as any;
  const client = new loaded.grpc.reflection[version].ServerReflection(address, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    const call = client.ServerReflectionInfo(metadata);
    call.on("data", (response: unknown) => (resolve(response), call.end(), client.close()));
    call.on("error", reject);
    call.write(request);
  });
}

describe("health and reflection (reflection with the credential)", () => {
  let node: TestNode;
  let health: any;
  before(async () => {
    node = await startTestNode();
    const loaded = grpc.loadPackageDefinition(protoLoader.loadSync(healthProtoPath, { enums: String })) as any;
    health = new loaded.grpc.health.v1.Health(node.grpcAddress, grpc.credentials.createInsecure());
  });
  after(async () => {
    health.close();
    await node.close();
  });

  const check = (service: string) =>
    new Promise<string>((resolve, reject) =>
      health.Check({ service }, (error: Error | null, response: { status: string }) => (error ? reject(error) : resolve(response.status))),
    );

  test("reflection v1 and v1alpha list the FleetService and health", async () => {
    for (const version of ["v1", "v1alpha"] as const) {
      const response = await reflect(node.grpcAddress, version, { list_services: "*" });
      const names = response.list_services_response.service.map((service: { name: string }) => service.name);
      assert.ok(names.includes("codecell.fleet.v1.FleetService"), `${version}: ${names}`);
      assert.ok(names.includes("grpc.health.v1.Health"), `${version}: ${names}`);
    }
  });

  test("reflection needs the fleet credential (only health is open)", async () => {
    for (const metadata of [new grpc.Metadata(), authMetadata("wrong-token-wrong-token")]) {
      await assert.rejects(reflect(node.grpcAddress, "v1", { list_services: "*" }, metadata), { code: grpc.status.UNAUTHENTICATED });
    }
  });

  test("reflection describes the FleetService (what grpcurl needs)", async () => {
    const response = await reflect(node.grpcAddress, "v1", { file_containing_symbol: "codecell.fleet.v1.FleetService" });
    const files: Buffer[] = response.file_descriptor_response.file_descriptor_proto;
    assert.ok(files.length > 0);
    assert.ok(files.some((file) => file.includes("detach_on_disconnect")));
  });

  test("health is SERVING, and NOT_SERVING once draining", async () => {
    assert.equal(await check(""), "SERVING");
    assert.equal(await check("codecell.fleet.v1.FleetService"), "SERVING");
    node.server.node.drain();
    assert.equal(await check(""), "NOT_SERVING");
    assert.equal(await check("codecell.fleet.v1.FleetService"), "NOT_SERVING");
  });
});
