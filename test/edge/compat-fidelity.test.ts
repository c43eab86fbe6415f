// Judge0 and Piston fidelity against the real Worker (workerd, HTTPS) and a real fleet node: a
// language_id another version stands in for (71, Python 3.8) is answered as sent everywhere a
// submission's language is, and by GET /judge0/languages/{id}; a Go package that is not main
// (the build makes no program) is Judge0's Compilation Error and Piston's failed compile stage.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { admin, request, startEdge, startFleet } from "./harness.ts";
import type { Edge, Fleet, Res } from "./harness.ts";
import { assertDocumented } from "./openapi-check.ts";

let fleet: Fleet;
let edge: Edge;
let key: string;

const NOT_MAIN = "package lib\n\nfunc F() int { return 1 }\n";

async function call(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Res> {
  const r = await request(edge.base, method, path, { headers, body });
  assertDocumented(method, path, r);
  return r;
}
const judge0 = (method: string, path: string, body?: unknown) => call(method, `/judge0${path}`, body, { "x-auth-token": key });

before(async () => {
  fleet = await startFleet({ env: { FLEET_SLOTS: "2" } });
  edge = await startEdge({ vars: { SYNC_HOLD_MS: "30000" } });
  const ops = admin(edge);
  const reg = await ops.registerNode(fleet);
  assert.equal(reg.status, 201, reg.text);
  key = (await ops.newKey()).key;
});

after(async () => {
  await edge?.stop();
  await fleet?.stop();
});

describe("Judge0: the language_id as sent", () => {
  it("71 is listed, answered by GET /languages/71, and echoed by the wait answer, GET and the batch GET", async () => {
    const list = await judge0("GET", "/languages");
    assert.equal(list.status, 200, list.text);
    const listed = list.json.find((l: { id: number }) => l.id === 71);
    assert.ok(listed, list.text);
    const one = await judge0("GET", "/languages/71");
    assert.equal(one.status, 200, one.text);
    // Judge0's full shape; the commands are the node's, not given (docs/migrating.md).
    assert.deepEqual(one.json, { id: 71, name: listed.name, is_archived: false, source_file: "main.py", compile_cmd: null, run_cmd: null });
    assert.match(one.json.name, /^Python \(3\.[0-9.]+\)/);

    const created = await judge0("POST", "/submissions?wait=true&fields=token,language_id,stdout,status_id", { source_code: "print(6 * 7)", language_id: 71 });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual([created.json.language_id, created.json.stdout, created.json.status_id], [71, "42\n", 3], created.text);
    const token = created.json.token as string;
    const read = await judge0("GET", `/submissions/${token}?fields=language_id`);
    assert.deepEqual(read.json, { language_id: 71 }, read.text);
    const other = await judge0("POST", "/submissions?wait=true&fields=token,language_id", { source_code: "print(1)", language_id: listed.id === 71 ? 92 : 71 });
    const batch = await judge0("GET", `/submissions/batch?tokens=${token},${other.json.token}&fields=language_id`);
    assert.equal(batch.status, 200, batch.text);
    assert.equal(batch.json.submissions[0].language_id, 71);
    assert.equal(batch.json.submissions[1].language_id, other.json.language_id, "each its own");
  });

  it("an id no submission may name is still a 404 there", async () => {
    const r = await request(edge.base, "GET", "/judge0/languages/4242", { headers: { "x-auth-token": key } });
    assert.equal(r.status, 404, r.text);
  });
});

describe("a Go package that is not main", () => {
  it("Judge0: status 6 Compilation Error, compile_output says why", async () => {
    const r = await judge0("POST", "/submissions?wait=true&fields=status,compile_output,stdout,stderr", { source_code: NOT_MAIN, language_id: 60 });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.status, { id: 6, description: "Compilation Error" }, r.text);
    assert.match(r.json.compile_output, /no executable.*package `main`/);
    assert.deepEqual([r.json.stdout, r.json.stderr], [null, null]);
  });

  it("Piston: a failed compile stage, its reason in stderr and output, and no run stage", async () => {
    const r = await call("POST", "/piston/api/v2/execute", { language: "go", version: "*", files: [{ content: NOT_MAIN }] }, { authorization: `Bearer ${key}` });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.run, undefined, r.text);
    assert.notEqual(r.json.compile.code, 0);
    assert.match(r.json.compile.stderr, /no executable.*package `main`/);
    assert.equal(r.json.compile.output, r.json.compile.stderr);
  });
});
