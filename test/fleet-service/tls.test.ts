// With FLEET_TLS_CERT/KEY both transports speak TLS (here with a throwaway self-signed certificate).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import * as grpc from "@grpc/grpc-js";
import { createLogger } from "../../fleet/src/service/logger.ts";
import { startFleetServer } from "../../fleet/src/service/server.ts";
import { NodeInfoResponse } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { createTestEngine, nativeClient, nativeUnary, TOKEN } from "./helpers.ts";

test("TLS on native gRPC and gRPC-Web", async () => {
  const dir = mkdtempSync(join(tmpdir(), "fleet-tls-"));
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
    "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"),
  ], { stdio: "ignore" });
  const cert = readFileSync(join(dir, "cert.pem"));
  const engine = await createTestEngine(1);
  const server = await startFleetServer(
    {
      host: "127.0.0.1",
      grpcPort: 0,
      grpcWebPort: 0,
      token: TOKEN,
      tls: { cert, key: readFileSync(join(dir, "key.pem")) },
      queueCapacity: 4,
      resultRetentionSecs: 60,
      maxRetainedResults: 10,
      maxRetainedResultBytes: 256 * 1024 * 1024,
      nodeId: "tls-node",
      drainGraceSecs: 1,
    },
    engine,
    createLogger({ level: "silent", nodeId: "tls-node" }),
  );
  try {
    const client = nativeClient(`127.0.0.1:${server.grpcPort}`, grpc.credentials.createSsl(cert));
    assert.equal((await nativeUnary(client, "NodeInfo", {})).node_id, "tls-node");
    client.close();

    const body = await new Promise<Buffer>((resolve, reject) => {
      const call = request(
        {
          host: "127.0.0.1",
          port: server.grpcWebPort,
          path: "/codecell.fleet.v1.FleetService/NodeInfo",
          method: "POST",
          ca: cert,
          headers: { "content-type": "application/grpc-web+proto", authorization: `Bearer ${TOKEN}` },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve(Buffer.concat(chunks)));
        },
      );
      call.on("error", reject);
      call.end(Buffer.alloc(5));
    });
    const length = body.readUInt32BE(1);
    assert.equal(NodeInfoResponse.decode(body.subarray(5, 5 + length)).nodeId, "tls-node");
  } finally {
    await server.close();
    await engine.close();
  }
});
