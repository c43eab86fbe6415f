// The SDK's live sessions (client.session(), docs/live-sessions.md) against the real stack: a real
// fleet node and the Worker on workerd. An echo program answers each line as it is written; a C
// program compiles, then runs; kill() ends a run with SIG; a write four times the window arrives
// whole, and one to a program that never reads never finishes; refusals are typed errors.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Agent, WebSocket as UndiciWebSocket } from "undici";
import { AuthenticationError, Codecell, SessionError } from "../../client/src/index.ts";
import type { Session, SessionEvent } from "../../client/src/index.ts";
import { useStack } from "../edge/harness.ts";
import { requireKernel } from "../helpers.ts";
import { recordingFetch } from "./stack.ts";

const stack = useStack();
const insecure = new Agent({ connect: { rejectUnauthorized: false } });

function sdk(apiKey: string): Codecell {
  return new Codecell({
    baseUrl: stack.edge.base, apiKey, fetch: recordingFetch(),
    webSocket: (url, headers) => new UndiciWebSocket(url, { headers, dispatcher: insecure }) as unknown as WebSocket,
  });
}

async function client(): Promise<Codecell> {
  return sdk((await stack.ops.newKey()).key);
}

/** Reads events until the program's stdout so far ends with `text`; returns the events read. */
async function readUntil(events: AsyncIterator<SessionEvent>, text: string, seen: SessionEvent[] = []): Promise<SessionEvent[]> {
  let stdout = "";
  while (!stdout.endsWith(text)) {
    const next = await events.next();
    assert.ok(!next.done, `the session ended before "${text.trim()}"; stdout was ${JSON.stringify(stdout)}`);
    seen.push(next.value);
    if (next.value.type === "stdout") stdout += next.value.data;
  }
  return seen;
}

const ECHO = "import sys\nfor line in sys.stdin: print(line.strip(), flush=True)\n";

describe("client.session() against the real stack", { skip: !requireKernel() }, () => {
  it("echo: each line written is answered before the next is written; end() gives the record", async () => {
    const cc = await client();
    const session: Session = await cc.session({ language: "python", code: ECHO });
    assert.match(session.id, /^[0-9a-f-]{36}$/);
    assert.ok(session.sessionId.length > 0);
    assert.equal(session.window, 1024 * 1024);
    const events = session[Symbol.asyncIterator]();
    for (const word of ["one", "two", "three"]) {
      await session.write(`${word}\n`);
      await readUntil(events, `${word}\n`);
    }
    await session.end();
    const rest: SessionEvent[] = [];
    for (let next = await events.next(); !next.done; next = await events.next()) rest.push(next.value);
    assert.equal(rest.at(-1)?.type, "result", JSON.stringify(rest));
    const record = await session.result;
    assert.equal(record.verdict, "AC");
    assert.equal(record.stdout, "one\ntwo\nthree\n");
    assert.deepEqual(await cc.result(session.id), record);
  });

  it("C: stage compile, then stage run, then the program's answer", async () => {
    const cc = await client();
    const code = "#include <stdio.h>\nint main(void) { int n; if (scanf(\"%d\", &n) == 1) printf(\"%d\\n\", 2 * n); return 0; }\n";
    const session = await cc.session({ language: "c", code });
    await session.write("21\n");
    await session.end();
    const seen: SessionEvent[] = [];
    for await (const event of session) seen.push(event);
    const order = seen.filter((e) => e.type !== "stderr").map((e) => (e.type === "stage" ? e.stage : e.type));
    assert.deepEqual(order, ["compile", "run", "stdout", "result"], JSON.stringify(seen));
    assert.equal((await session.result).stdout, "42\n");
  });

  it("kill(): the run ends with SIG", async () => {
    const session = await (await client()).session({ language: "python", code: "import time\nprint('ready', flush=True)\ntime.sleep(600)\n" });
    await readUntil(session[Symbol.asyncIterator](), "ready\n");
    session.kill();
    const record = await session.result;
    assert.equal(record.verdict, "SIG", JSON.stringify(record));
  });

  it("a write four times the window reaches a program that reads it all: the SDK waited for stdin_ack (no 4411)", async () => {
    const session = await (await client()).session({ language: "python", code: "import sys\nprint(len(sys.stdin.buffer.read()))\n" });
    const size = 4 * session.window;
    await session.write(Uint8Array.from({ length: size }, (_, i) => i & 0xff));
    await session.end();
    const record = await session.result;
    assert.equal(record.stdout, `${size}\n`, JSON.stringify(record));
    assert.equal(record.verdict, "AC");
  });

  it("a write to a program that never reads does not finish: it rejects once the run has ended", async () => {
    const session = await (await client()).session({ language: "python", code: "import time\nprint('not reading', flush=True)\ntime.sleep(1)\n" });
    // Four windows cannot all be held by the window, the node's buffer for the run and a pipe.
    const write = session.write(new Uint8Array(4 * session.window));
    await readUntil(session[Symbol.asyncIterator](), "not reading\n");
    const record = await session.result;
    assert.equal(record.verdict, "AC", JSON.stringify(record));
    const error = await write.catch((e: unknown) => e);
    assert.ok(error instanceof SessionError, `the write finished: ${String(error)}`);
  });

  it("a refused start rejects with SessionError 4400 and the validation's message", async () => {
    const error = await (await client()).session({ language: "no-such-language", code: "x" }).catch((e: unknown) => e);
    assert.ok(error instanceof SessionError, String(error));
    assert.equal(error.code, 4400);
    assert.match(`${error.error} ${error.detail}`, /language/);
  });

  it("a bad key rejects with AuthenticationError (the handshake's 401, asked again over fetch)", async () => {
    const error = await sdk("not-a-key").session({ language: "python", code: ECHO }).catch((e: unknown) => e);
    assert.ok(error instanceof AuthenticationError, String(error));
    assert.equal(error.status, 401);
  });
});
