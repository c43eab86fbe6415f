// Native gRPC bounds its work per call before it reads a body: the credential is checked from the
// headers (nothing of an unauthenticated message is decoded), a message above the cap is refused
// from its length prefix, and HTTP/2 admits only so many streams at once. Raw bytes go through a
// plain grpc-js client with a passthrough serializer, so the server sees exactly what is sent.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { connect, constants as http2Constants } from "node:http2";
import { connect as tcpConnect } from "node:net";
import { describe, test } from "node:test";
import { after, before } from "../hooks.ts";
import * as grpc from "@grpc/grpc-js";
import { ExecuteRequest } from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { MAX_EXECUTE_REQUEST_BYTES } from "../../proto/limits.ts";
import { createFakeEngine, createGatedEngine } from "../../shared-fixtures/fake-engine.ts";
import { TOKEN, authMetadata, collect, nativeClient, nativeExecute, nativeUnary, startTestNode, waitFor, type TestNode } from "./helpers.ts";

const SERVICE = "/codecell.fleet.v1.FleetService";
const pass = (bytes: Buffer) => bytes;

/**
 * `size` bytes of empty `tests` entries (field 14, length 0: 2 bytes each, so 4 MiB is about two
 * million of them) ending in a tag of wire type 7, which no decoder accepts: decoding it would
 * build every entry and then fail (INTERNAL), so an UNAUTHENTICATED answer proves it was not decoded.
 */
function undecodable(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i + 1 < size; i += 2) bytes[i] = 0x72;
  bytes[size - 2] = 0x07;
  bytes[size - 1] = 0x07;
  return bytes;
}

interface Answer {
  code: grpc.status;
  details: string;
}

function rawExecute(client: grpc.Client, message: Buffer, metadata: grpc.Metadata): Promise<Answer> {
  return new Promise((resolve) => {
    const call = client.makeServerStreamRequest(`${SERVICE}/Execute`, pass, pass, message, metadata);
    call.on("data", () => {});
    call.on("error", (error: grpc.ServiceError) => resolve({ code: error.code, details: error.details }));
    call.on("end", () => resolve({ code: grpc.status.OK, details: "" }));
  });
}

function rawUnary(client: grpc.Client, method: string, message: Buffer, metadata: grpc.Metadata): Promise<Answer> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(`${SERVICE}/${method}`, pass, pass, message, metadata, (error) =>
      resolve(error ? { code: error.code!, details: error.details! } : { code: grpc.status.OK, details: "" }),
    );
  });
}

const noCredentials: [string, grpc.Metadata][] = [
  ["no credential", new grpc.Metadata()],
  ["a wrong token", authMetadata("wrong-token-wrong-token")],
];

describe("native gRPC: the credential before the body, and a size cap", () => {
  let node: TestNode;
  let raw: grpc.Client;
  before(async () => {
    node = await startTestNode({ engine: createFakeEngine(2) });
    raw = new grpc.Client(node.grpcAddress, grpc.credentials.createInsecure());
  });
  after(async () => {
    raw.close();
    await node.close();
  });

  test("control: an authorised message that cannot be decoded is INTERNAL", async () => {
    const small = undecodable(6);
    assert.equal((await rawExecute(raw, small, authMetadata())).code, grpc.status.INTERNAL);
    for (const method of ["GetResult", "NodeInfo", "Drain"]) {
      assert.equal((await rawUnary(raw, method, small, authMetadata())).code, grpc.status.INTERNAL, method);
    }
    assert.equal(node.server.node.draining, false);
  });

  for (const [name, metadata] of noCredentials) {
    test(`with ${name}, a 4 MiB message is UNAUTHENTICATED on every FleetService method, never decoded`, async () => {
      const bomb = undecodable(MAX_EXECUTE_REQUEST_BYTES);
      const before = node.engine.executed.length;
      const execute = await rawExecute(raw, bomb, metadata);
      assert.equal(execute.code, grpc.status.UNAUTHENTICATED, execute.details);
      assert.match(execute.details, /fleet credential/);
      for (const method of ["GetResult", "NodeInfo", "Drain"]) {
        const answer = await rawUnary(raw, method, bomb, metadata);
        assert.equal(answer.code, grpc.status.UNAUTHENTICATED, `${method}: ${answer.details}`);
      }
      assert.equal(node.engine.executed.length, before);
      assert.equal(node.server.node.draining, false);
    });
  }

  test("a refused call is counted in codecell_fleet_rpcs_total like any other", async () => {
    const count = async (method: string) =>
      (await node.server.node.metrics.rpcs.get()).values.find(
        (v) => v.labels.method === method && v.labels.transport === "grpc" && v.labels.code === "UNAUTHENTICATED",
      )?.value ?? 0;
    const [execute, nodeInfo] = [await count("execute"), await count("nodeInfo")];
    await rawExecute(raw, undecodable(64), new grpc.Metadata());
    await rawUnary(raw, "NodeInfo", undecodable(64), new grpc.Metadata());
    assert.equal(await count("execute"), execute + 1);
    assert.equal(await count("nodeInfo"), nodeInfo + 1);
  });

  test("a refused call's stream is reset (NO_ERROR) once its status is out: the client need not send the rest of its body", async () => {
    const session = connect(`http://${node.grpcAddress}`);
    try {
      const stream = session.request({ ":method": "POST", ":path": `${SERVICE}/Execute`, "content-type": "application/grpc", te: "trailers" });
      stream.write(undecodable(64 * 1024)); // the start of a body, never ended
      const headers = await new Promise<Record<string, unknown>>((resolve) => stream.once("response", resolve));
      assert.equal(headers["grpc-status"], String(grpc.status.UNAUTHENTICATED));
      await waitFor(() => stream.closed, "the server to reset the stream");
      assert.equal(stream.rstCode, http2Constants.NGHTTP2_NO_ERROR); // closed by the server: this side never ended its body
    } finally {
      session.destroy();
    }
  });

  test("the credential is checked before the size: an unauthenticated message above the cap is UNAUTHENTICATED", async () => {
    const answer = await rawExecute(raw, undecodable(MAX_EXECUTE_REQUEST_BYTES + 2), new grpc.Metadata());
    assert.equal(answer.code, grpc.status.UNAUTHENTICATED, answer.details);
  });

  test("an authorised message above the cap is RESOURCE_EXHAUSTED; one of exactly the cap is read", async () => {
    const over = await rawExecute(raw, Buffer.alloc(MAX_EXECUTE_REQUEST_BYTES + 1), authMetadata());
    assert.equal(over.code, grpc.status.RESOURCE_EXHAUSTED, over.details);

    // A request whose code fills the cap: admitted and decoded, then refused by validation.
    const head = ExecuteRequest.encode({ ...ExecuteRequest.fromPartial({}), submissionId: randomUUID(), language: "python" }).finish().length;
    const codeBytes = MAX_EXECUTE_REQUEST_BYTES - head - 1 - 4; // tag, 4-byte length
    const atCap = Buffer.from(ExecuteRequest.encode(ExecuteRequest.fromPartial({ submissionId: randomUUID(), language: "python", code: "x".repeat(codeBytes) })).finish());
    assert.equal(atCap.length, MAX_EXECUTE_REQUEST_BYTES);
    const answer = await rawExecute(raw, atCap, authMetadata());
    assert.equal(answer.code, grpc.status.INVALID_ARGUMENT, answer.details);
    assert.match(answer.details, /code exceeds/);
  });

  test("a flood of unauthenticated 4 MiB messages: authorised calls are answered throughout, none of the flood is decoded", async () => {
    const bomb = undecodable(MAX_EXECUTE_REQUEST_BYTES);
    const codes: grpc.status[] = [];
    let stop = false;
    const flooders = Array.from({ length: 2 }, async () => {
      // A connection of its own (grpc-js would otherwise share one with the authorised client).
      const client = new grpc.Client(node.grpcAddress, grpc.credentials.createInsecure(), { "grpc.use_local_subchannel_pool": 1 });
      while (!stop) codes.push((await rawExecute(client, bomb, new grpc.Metadata())).code);
      client.close();
    });
    const client = nativeClient(node.grpcAddress);
    try {
      await waitFor(() => codes.length >= 4, "the flood to be under way");
      for (let i = 0; i < 5; i++) {
        const floodBefore = codes.length;
        assert.equal((await nativeUnary(client, "NodeInfo", {})).node_id, "test-node");
        await waitFor(() => codes.length > floodBefore, "the flood to go on beside the authorised call");
      }
    } finally {
      stop = true;
      await Promise.all(flooders);
      client.close();
    }
    assert.ok(codes.length >= 9);
    assert.deepEqual(new Set(codes), new Set([grpc.status.UNAUTHENTICATED]));
  });
});

describe("native gRPC: a cap on concurrent streams", () => {
  const MAX_STREAMS = 3;
  let node: TestNode;
  const engine = createGatedEngine(8);
  before(async () => {
    node = await startTestNode({ engine, grpcMaxConcurrentStreams: MAX_STREAMS });
  });
  after(() => node.close());

  test("the server announces SETTINGS_MAX_CONCURRENT_STREAMS", async () => {
    const session = connect(`http://${node.grpcAddress}`);
    try {
      const settings = await new Promise<{ maxConcurrentStreams?: number }>((resolve, reject) => {
        session.once("remoteSettings", resolve);
        session.once("error", reject);
      });
      assert.equal(settings.maxConcurrentStreams, MAX_STREAMS);
    } finally {
      session.close();
    }
  });

  test("a client that opens more streams than announced anyway loses its connection (GOAWAY PROTOCOL_ERROR)", async () => {
    // Raw HTTP/2 frames: any real client library would hold the extra stream back itself.
    const frame = (type: number, flags: number, stream: number, payload = Buffer.alloc(0)) => {
      const head = Buffer.alloc(9);
      head.writeUIntBE(payload.length, 0, 3);
      head[3] = type;
      head[4] = flags;
      head.writeUInt32BE(stream, 5);
      return Buffer.concat([head, payload]);
    };
    const literal = (name: string, value: string) => Buffer.from([0, name.length, ...Buffer.from(name), value.length, ...Buffer.from(value)]);
    const headers = Buffer.concat(
      [[":method", "POST"], [":scheme", "http"], [":path", `${SERVICE}/NodeInfo`], [":authority", "fleet"], ["content-type", "application/grpc"], ["te", "trailers"], ["authorization", `Bearer ${TOKEN}`]].map(
        ([name, value]) => literal(name!, value!),
      ),
    );
    const [host, port] = node.grpcAddress.split(":");
    const socket = tcpConnect(Number(port), host);
    let received = Buffer.alloc(0);
    let goaway: { code: number; debug: string } | undefined;
    let closed = false;
    socket.on("close", () => (closed = true));
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      while (received.length >= 9 && received.length >= 9 + received.readUIntBE(0, 3)) {
        const length = received.readUIntBE(0, 3);
        const [type, flags] = [received[3], received[4]!];
        const payload = received.subarray(9, 9 + length);
        if (type === 4 && !(flags & 1)) {
          // The server's SETTINGS: acknowledge them, then open one stream more than they allow
          // (authorised calls waiting for a body that never comes, so the first ones stay open).
          const opened = Array.from({ length: MAX_STREAMS + 1 }, (_, i) => frame(1, 0x4, 1 + 2 * i, headers)); // END_HEADERS
          socket.write(Buffer.concat([frame(4, 1, 0), ...opened]));
        }
        if (type === 7) goaway = { code: payload.readUInt32BE(4), debug: payload.subarray(8).toString() };
        received = received.subarray(9 + length);
      }
    });
    socket.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    socket.write(frame(4, 0, 0));
    try {
      await waitFor(() => goaway !== undefined || closed, "the server to end the connection");
      assert.equal(goaway?.code, http2Constants.NGHTTP2_PROTOCOL_ERROR);
      assert.match(goaway.debug, /max concurrent streams exceeded/);
    } finally {
      socket.destroy();
    }
  });

  test("more streams than the cap on one channel: at most the cap are open at once, the others wait their turn", async () => {
    const client = nativeClient(node.grpcAddress);
    const calls = 5;
    try {
      const streams = Array.from({ length: calls }, () =>
        collect(nativeExecute(client, { submission_id: randomUUID(), language: "c", code: "int main(void) { return 0; }", stdin: "" })),
      );
      for (let released = 0; released < calls; released++) {
        await waitFor(() => engine.waiting > 0, `run ${released + 1} at the gate`);
        if (released === 0) await waitFor(() => engine.inFlight >= MAX_STREAMS, "the first streams to fill the cap");
        engine.release();
      }
      const results = await Promise.all(streams);
      for (const { messages, error } of results) {
        assert.equal(error, undefined, error?.details);
        assert.equal(messages.at(-1)?.completed?.result?.verdict, "VERDICT_AC");
      }
      assert.equal(engine.highWater, MAX_STREAMS);
    } finally {
      client.close();
    }
  });
});
