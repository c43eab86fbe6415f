// gRPC-Web over HTTP/1.1: nice-grpc-web (fetch) with the ts-proto definition, plus the raw framing
// a Worker's fetch sees, and GET /metrics.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { describe, test } from "node:test";
import { after, before } from "../hooks.ts";
import { Status } from "nice-grpc-common";
import {
  ExecuteRequest,
  ExecuteResponse,
  OutputIntegrity,
  RunState,
  Verdict,
} from "../../proto/gen/codecell/fleet/v1/fleet.ts";
import { GrpcError, fleetMethods, serverStream, unary } from "../../proto/grpc-web/client.ts";
import { MAX_REQUEST_BODY_BYTES } from "../../fleet/src/service/precheck.ts";
import { markedSleeper, processesWith, startTestNode, TOKEN, waitFor, webClient, type TestNode } from "./helpers.ts";

function frames(bytes: Uint8Array): { flag: number; payload: Buffer }[] {
  const buffer = Buffer.from(bytes);
  const out = [];
  for (let offset = 0; offset < buffer.length; ) {
    const length = buffer.readUInt32BE(offset + 1);
    out.push({ flag: buffer[offset]!, payload: buffer.subarray(offset + 5, offset + 5 + length) });
    offset += 5 + length;
  }
  return out;
}

function framed(message: Uint8Array): Uint8Array {
  const out = Buffer.alloc(5 + message.length);
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

const headers = { "content-type": "application/grpc-web+proto", authorization: `Bearer ${TOKEN}` };

describe("gRPC-Web transport", () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ slots: 2 });
  });
  after(() => node.close());

  test("nice-grpc-web: started then completed with the result record", async () => {
    const id = randomUUID();
    const events = [];
    for await (const event of webClient(node.webUrl).execute({ submissionId: id, language: "python", code: "import sys\nprint(sys.stdin.read().upper())", stdin: "abc" })) {
      events.push(event);
    }
    assert.equal(events.length, 2);
    assert.ok(events[0]!.started?.startedAt instanceof Date);
    const result = events[1]!.completed!.result!;
    assert.equal(result.submissionId, id);
    assert.equal(result.verdict, Verdict.VERDICT_AC);
    assert.equal(result.stdout, "ABC\n");
    assert.equal(result.outputIntegrity, OutputIntegrity.OUTPUT_INTEGRITY_COMPLETE);
    assert.equal(result.exitCode, 0);
    assert.equal(result.evidence?.verdictCause, "normal_exit");
    assert.deepEqual(result.startedAt, events[0]!.started!.startedAt);

    const kept = await webClient(node.webUrl).getResult({ submissionId: id });
    assert.equal(kept.state, RunState.RUN_STATE_COMPLETED);
    assert.deepEqual(kept.result, result);
  });

  test("nice-grpc-web: NodeInfo describes the node", async () => {
    const info = await webClient(node.webUrl).nodeInfo({});
    assert.equal(info.nodeId, "test-node");
    assert.match(info.version, /^\d+\.\d+\.\d+/);
    assert.equal(info.slots, 2);
    assert.equal(info.queueCapacity, 64);
    assert.ok(info.languages.some((language) => language.name === "python" && language.version !== ""));
    assert.ok(info.languages.some((language) => language.name === "c"));
    assert.equal(info.enforcementMode, "strict");
    assert.match(info.cgroupVersion, /^v[12]$/);
    assert.notEqual(info.kernel, "");
    assert.equal(info.ready, true);
    assert.equal(info.draining, false);
  });

  test("nice-grpc-web: bad requests map to INVALID_ARGUMENT", async () => {
    await assert.rejects(
      (async () => {
        for await (const _ of webClient(node.webUrl).execute({ submissionId: randomUUID(), language: "python", code: "", stdin: "" }));
      })(),
      { code: Status.INVALID_ARGUMENT, details: "code must not be empty" },
    );
  });

  test("the contract's client (proto/grpc-web/client.ts, what the edge uses): a stream, a unary call, a status", async () => {
    const target = { url: node.webUrl, token: TOKEN };
    const id = randomUUID();
    const events = [];
    for await (const event of serverStream(target, fleetMethods.execute, { submissionId: id, language: "python", code: "print('via proto')", stdin: "", detachOnDisconnect: false, tenantId: "" })) {
      events.push(event);
    }
    assert.equal(events.at(-1)?.completed?.result?.stdout, "via proto\n");
    const kept = await unary(target, fleetMethods.getResult, { submissionId: id }, 5_000);
    assert.equal(kept.state, RunState.RUN_STATE_COMPLETED);
    await assert.rejects(unary({ ...target, token: "wrong-token-wrong-token" }, fleetMethods.nodeInfo, {}, 5_000), (e: unknown) =>
      e instanceof GrpcError && e.code === Status.UNAUTHENTICATED && e.statusName === "UNAUTHENTICATED" && !e.transport);
  });

  test("raw: one frame per message, flushed while the program still runs; trailers in the body", async () => {
    const id = randomUUID();
    const marker = `flush-${id}`;
    const controller = new AbortController();
    const body = framed(ExecuteRequest.encode(ExecuteRequest.create({ submissionId: id, language: "python", code: markedSleeper(marker) })).finish());
    const response = await fetch(`${node.webUrl}/codecell.fleet.v1.FleetService/Execute`, { method: "POST", headers, body, signal: controller.signal });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/grpc-web+proto");
    assert.equal(response.headers.get("grpc-status"), null, "status travels in the body, not the headers");
    const reader = response.body!.getReader();
    // The program never ends by itself, so a frame that arrives now was flushed as it was produced.
    const first = await reader.read();
    const [started] = frames(first.value!);
    assert.equal(started!.flag, 0x00);
    assert.ok(ExecuteResponse.decode(started!.payload).started?.startedAt instanceof Date);
    await waitFor(() => processesWith(marker).length > 0, "program running");
    controller.abort();
    await waitFor(() => processesWith(marker).length === 0, "program killed by the dropped request");
  });

  test("raw: a unary call ends with the 0x80 trailer frame", async () => {
    const response = await fetch(`${node.webUrl}/codecell.fleet.v1.FleetService/NodeInfo`, { method: "POST", headers, body: framed(new Uint8Array()) });
    const parts = frames(new Uint8Array(await response.arrayBuffer()));
    assert.deepEqual(parts.map((part) => part.flag), [0x00, 0x80]);
    assert.equal(parts[1]!.payload.toString("latin1"), "grpc-status:0\r\ngrpc-message:\r\n");
  });

  test("raw: malformed frame, unknown method, wrong content type", async () => {
    const malformed = await fetch(`${node.webUrl}/codecell.fleet.v1.FleetService/NodeInfo`, { method: "POST", headers, body: new Uint8Array([0, 0, 0, 0, 9]) });
    const trailer = frames(new Uint8Array(await malformed.arrayBuffer())).at(-1)!;
    assert.match(trailer.payload.toString("latin1"), new RegExp(`grpc-status:${Status.INVALID_ARGUMENT}\r\n`));

    const unknown = await fetch(`${node.webUrl}/codecell.fleet.v1.FleetService/Nope`, { method: "POST", headers, body: framed(new Uint8Array()) });
    assert.equal(unknown.status, 404);
    await unknown.arrayBuffer();

    const text = await fetch(`${node.webUrl}/codecell.fleet.v1.FleetService/NodeInfo`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/grpc-web-text" },
      body: "AAAAAAA=",
    });
    assert.equal(text.status, 415);
    await text.arrayBuffer();
  });

  test("GET /metrics: Prometheus text with the node's metrics", async () => {
    for await (const _ of webClient(node.webUrl).execute({ submissionId: randomUUID(), language: "c", code: "int main(void) { return 0; }", stdin: "" }));
    const response = await fetch(`${node.webUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^text\/plain/);
    const text = await response.text();
    for (const name of [
      'codecell_fleet_runs_total{language="c",verdict="AC"}',
      "codecell_fleet_run_duration_seconds_bucket",
      "codecell_fleet_queue_wait_seconds_bucket",
      "codecell_fleet_slots 2",
      "codecell_fleet_slots_in_use",
      "codecell_fleet_queue_depth 0",
      'codecell_fleet_rpcs_total{method="execute",transport="grpc-web",code="OK"}',
      "process_cpu_seconds_total",
    ]) {
      assert.ok(text.includes(name), name);
    }
    assert.ok(!text.includes(TOKEN));
  });

  test("GET /metrics refuses a missing or wrong fleet credential", async () => {
    for (const auth of [{}, { authorization: "Bearer not-the-token-at-all" }]) {
      const response = await fetch(`${node.webUrl}/metrics`, { headers: auth });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get("www-authenticate"), "Bearer");
      assert.doesNotMatch(await response.text(), /codecell_fleet/);
    }
  });

  /** Sends only the request head (no body byte at all) and collects what the server answers. */
  async function headOnly(head: Record<string, string>): Promise<{ answer: string; closedByServer: boolean }> {
    const url = new URL(node.webUrl);
    const socket = connect(Number(url.port), url.hostname);
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    const lines = Object.entries(head).map(([key, value]) => `${key}: ${value}`);
    socket.write(`POST /codecell.fleet.v1.FleetService/Execute HTTP/1.1\r\nhost: ${url.host}\r\n${lines.join("\r\n")}\r\n\r\n`);
    const closedByServer = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 5_000);
      socket.on("end", () => (clearTimeout(timer), resolve(true)));
      socket.on("error", () => (clearTimeout(timer), resolve(true)));
    });
    socket.destroy();
    return { answer, closedByServer };
  }

  test("a 4 MiB unauthenticated body is refused before a byte of it is read", async () => {
    const { answer, closedByServer } = await headOnly({ "content-type": "application/grpc-web+proto", "content-length": String(MAX_REQUEST_BODY_BYTES) });
    assert.ok(closedByServer, "the server answered and closed while the body was still unsent");
    assert.match(answer, /^HTTP\/1\.1 200/);
    assert.match(answer, new RegExp(`grpc-status:${Status.UNAUTHENTICATED}\r\n`));
  });

  test("an authorised body announced above the cap (a 4 MiB message in its frame) is refused before it is read", async () => {
    const { answer, closedByServer } = await headOnly({ ...headers, "content-length": String(MAX_REQUEST_BODY_BYTES + 1) });
    assert.ok(closedByServer);
    assert.match(answer, new RegExp(`grpc-status:${Status.RESOURCE_EXHAUSTED}\r\n`));
  });

  test("an authorised chunked body (no length announced) is counted as it arrives and cut above the cap", async () => {
    const { status, body } = await new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const call = httpRequest(`${node.webUrl}/codecell.fleet.v1.FleetService/Execute`, { method: "POST", headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks) }));
      });
      call.on("error", reject);
      const chunk = Buffer.alloc(64 * 1024);
      for (let sent = 0; sent <= MAX_REQUEST_BODY_BYTES; sent += chunk.length) call.write(chunk);
      call.end();
    });
    assert.equal(status, 200);
    const trailer = frames(body).at(-1)!;
    assert.equal(trailer.flag, 0x80);
    assert.match(trailer.payload.toString(), new RegExp(`grpc-status:${Status.RESOURCE_EXHAUSTED}\r\n`));
  });
});
