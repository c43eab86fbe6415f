// The node's side of the zygote's connected spares: three connections under one token, the CPU set
// announced on ctl, taken by CPU set; anything malformed, and a spare that loses a connection, is
// dropped whole. Real unix sockets, no launcher.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { ReadySpares } from "../../fleet/src/sandbox/ready-spares.ts";

const TOKEN_A = "a".repeat(32);
const TOKEN_B = "b".repeat(32);

describe("ready spares", () => {
  const dir = mkdtempSync(join(tmpdir(), "codecell-ready-spares-"));
  const path = join(dir, "s.sock");
  let server: Server;
  let spares: ReadySpares;
  /** The server's end of every connection, in the order they arrive. */
  const accepted: Socket[] = [];
  let waiting: ((socket: Socket) => void)[] = [];
  const clients: Socket[] = [];

  before(async () => {
    server = createServer((socket) => {
      accepted.push(socket);
      waiting.shift()?.(socket);
    });
    await new Promise<void>((resolve) => server.listen(path, resolve));
  });
  after(async () => {
    for (const client of clients) client.destroy();
    for (const socket of accepted) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** One connection, its first bytes, and the server's end handed to the spares as the node does. */
  async function offer(token: string, kind: string, first: string): Promise<{ client: Socket; server: Socket }> {
    const serverSide = new Promise<Socket>((resolve) => waiting.push(resolve));
    const client = connect(path);
    clients.push(client);
    client.on("error", () => {});
    const end = await serverSide;
    end.on("error", () => {});
    spares.accept(token, kind, end, Buffer.from(first));
    return { client, server: end };
  }

  async function spare(token: string, cpus: string): Promise<{ client: Socket; server: Socket }[]> {
    return [await offer(token, "out", ""), await offer(token, "err", ""), await offer(token, "ctl", `spare ${cpus}\n`)];
  }

  const closed = (socket: Socket) => socket.destroyed || new Promise<boolean>((resolve) => socket.once("close", () => resolve(true)));

  it("is taken by its CPU set, once, with its three connections", async () => {
    spares = new ReadySpares();
    waiting = [];
    const streams = await spare(TOKEN_A, "0");
    assert.equal(spares.take("1"), undefined);
    const taken = spares.take("0");
    assert.ok(taken);
    assert.deepEqual([taken.out, taken.err, taken.ctl], streams.map((s) => s.server));
    assert.equal(spares.take("0"), undefined);
  });

  it("reads an announce that comes in pieces, and after it the ctl stream is the run's", async () => {
    spares = new ReadySpares();
    waiting = [];
    await offer(TOKEN_B, "out", "");
    await offer(TOKEN_B, "err", "");
    const ctl = await offer(TOKEN_B, "ctl", "spa");
    assert.equal(spares.take("0-3"), undefined);
    ctl.client.write("re 0-3\n");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const taken = spares.take("0-3");
    assert.ok(taken);
    const line = new Promise<string>((resolve) => taken.ctl.once("data", (chunk: Buffer) => resolve(chunk.toString())));
    taken.ctl.resume();
    ctl.client.write("started\n");
    assert.equal(await line, "started\n");
  });

  it("drops a spare whose announce is not one, and one that loses a connection", async () => {
    spares = new ReadySpares();
    waiting = [];
    const bad = [await offer(TOKEN_A, "out", ""), await offer(TOKEN_A, "err", ""), await offer(TOKEN_A, "ctl", "hello 0\n")];
    for (const { server: end } of bad) assert.equal(await closed(end), true);
    assert.equal(spares.take("0"), undefined);
    const streams = await spare(TOKEN_B, "0");
    streams[1]!.client.destroy();
    for (const { server: end } of streams) assert.equal(await closed(end), true);
    assert.equal(spares.take("0"), undefined);
  });

  it("refuses a fourth kind of connection and a second of the same kind", async () => {
    spares = new ReadySpares();
    waiting = [];
    const odd = await offer(TOKEN_A, "in ", "");
    assert.equal(await closed(odd.server), true);
    await offer(TOKEN_B, "out", "");
    const twice = await offer(TOKEN_B, "out", "");
    assert.equal(await closed(twice.server), true);
  });
});
