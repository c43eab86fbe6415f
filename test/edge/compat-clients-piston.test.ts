// Piston's clients against the real stack (workerd and a real fleet node): `piston-client` from the
// npm registry, driven as its README shows, given only our base URL with the key in it (it sends no
// headers of its own, and posts its JSON as text/plain); and aiopyston 1.2.1 (PystonClient, Python:
// its registry is not reachable here), whose request sequence is sent as its source makes it, with
// the key as a bare `Authorization` header.
import assert from "node:assert/strict";
import https from "node:https";
import { describe, it } from "node:test";
import { piston } from "piston-client";
import { after, before } from "../hooks.ts";
import { keyOnPlan, request, useStack } from "./harness.ts";
import type { Res } from "./harness.ts";
import { assertDocumented } from "./openapi-check.ts";

const stack = useStack({ edge: { vars: { RATE_LIMIT_PER_MIN: "1000" } } });
let key: string;
let made: Promise<unknown> | undefined;
/** In each describe: the stack's own hooks run first (a file's top-level hooks start together). */
const useKey = () => before(async () => {
  made ??= keyOnPlan(stack, "piston-clients").then((c) => (key = c.key!));
  await made;
});

interface PistonRuntime {
  language: string;
  version: string;
  aliases: string[];
}

describe("piston-client from the npm registry, as its README shows", () => {
  useKey();
  // The local stack's certificate is self-signed; the client fetches with Node's default agent.
  let saved: boolean | undefined;
  before(() => {
    saved = https.globalAgent.options.rejectUnauthorized;
    https.globalAgent.options.rejectUnauthorized = false;
  });
  after(() => {
    https.globalAgent.options.rejectUnauthorized = saved;
  });
  const client = () => piston({ server: `https://${key}@${new URL(stack.edge.base).host}/piston` });

  it("client.runtimes(): every runtime with its language, version and aliases", async () => {
    const runtimes = (await client().runtimes()) as PistonRuntime[];
    assert.ok(Array.isArray(runtimes), JSON.stringify(runtimes));
    const python = runtimes.find((r) => r.language === "python");
    assert.ok(python?.aliases.includes("py"), JSON.stringify(runtimes));
    assert.ok(runtimes.every((r) => typeof r.version === "string" && Array.isArray(r.aliases)));
    assert.ok(!runtimes.some((r) => r.language === "multi-file"), "Piston has no multi-file language");
  });

  it("client.execute('python', 'print(\"Hello World!\")'): the run stage", async () => {
    const result = await client().execute("python", 'print("Hello World!")');
    assert.equal(result.language, "python");
    assert.deepEqual([result.run?.stdout, result.run?.stderr, result.run?.code, result.run?.signal, result.run?.output], ["Hello World!\n", "", 0, null, "Hello World!\n"]);
  });

  it("client.execute(language, code, config): the default arguments 1 2 3 reach the program", async () => {
    const result = await client().execute("javascript", 'console.log("Hello world!", process.argv.slice(2).join(" "))', { language: "3.9.4 " });
    assert.equal(result.run?.stdout, "Hello world! 1 2 3\n", JSON.stringify(result));
  });

  it("client.execute(config): an alias, a version from the runtimes, a named file, stdin, args and the limits in camelCase", async () => {
    const node = ((await client().runtimes()) as PistonRuntime[]).find((r) => r.language === "javascript")!;
    const result = await client().execute({
      language: "js", version: node.version, files: [{ name: "my_cool_code.js", content: "process.stdin.on('data', (d) => console.log(String(d).trim(), process.argv.slice(2)))" }],
      stdin: "piped", args: ["1", "2", "3"], compileTimeout: 10000, runTimeout: 3000, compileMemoryLimit: -1, runMemoryLimit: -1,
    });
    assert.equal(result.run?.stdout, "piped [ '1', '2', '3' ]\n", JSON.stringify(result));
  });

  it("a compiled language: the compile stage, then the run", async () => {
    const result = await client().execute("c++", "#include <cstdio>\nint main(){std::puts(\"compiled\");}");
    assert.equal(result.compile?.code, 0, JSON.stringify(result));
    assert.equal(result.run?.stdout, "compiled\n");
  });

  it("errors come back as the server's answer, never thrown: an unknown language is {message}", async () => {
    const result = (await client().execute("cobol", "DISPLAY 'X'.")) as unknown as { message?: string };
    assert.equal(typeof result.message, "string", JSON.stringify(result));
  });
});

/** PystonClient(api_key, base_url): one aiohttp session with Authorization: <key>, its User-Agent and JSON. */
const BASE_URL = "/piston/api/v2/";
const pystonHeaders = (apiKey: string) => ({ Authorization: apiKey, "User-Agent": "Pyston https://github.com/ffaanngg/pyston 1.2.1", "Content-Type": "application/json" });

async function pyston(method: string, endpoint: string, apiKey: string, data?: string): Promise<Res> {
  const r = await request(stack.edge.base, method, `${BASE_URL}${endpoint}`, { headers: pystonHeaders(apiKey), ...(data !== undefined ? { raw: data } : {}) });
  if (r.status < 300 || r.status === 400) assertDocumented(method, `${BASE_URL}${endpoint}`.replace(/\/$/, ""), r);
  return r;
}

/** PystonClient.execute's payload: version "*", empty stdin and args, its default limits, files named "" unless given. */
const payload = (language: string, files: { filename?: string; content: string }[]) => JSON.stringify({
  language, version: "*", stdin: "", args: [], compile_timeout: 10000, run_timeout: 3000, compile_memory_limit: -1, run_memory_limit: -1,
  files: files.map((f) => ({ name: f.filename ?? "", content: f.content })),
});

describe("aiopyston 1.2.1 (PystonClient)", () => {
  useKey();
  it("runtimes(), then get_runtimes and languages from them: the key as a bare Authorization header", async () => {
    const r = await pyston("GET", "runtimes/", key);
    assert.equal(r.status, 200, r.text);
    for (const rt of r.json) assert.ok(typeof rt.language === "string" && Array.isArray(rt.aliases) && typeof rt.version === "string");
    const forPy = r.json.filter((rt: PistonRuntime) => rt.language === "py" || rt.aliases.includes("py"));
    assert.ok(forPy.length > 0, "get_runtimes('py') finds Python");
  });

  it("execute('python', [File(code)]): the Output's run stage", async () => {
    const r = await pyston("POST", "execute/", key, payload("python", [{ content: "print('Hello world')" }]));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.json.language, r.json.run.stdout, r.json.run.output, r.json.run.code, r.json.run.signal], ["python", "Hello world\n", "Hello world\n", 0, null]);
    assert.equal(r.json.compile, undefined);
  });

  it("execute('c', [File(code, 'main.c')]): compile_stage and run_stage", async () => {
    const r = await pyston("POST", "execute/", key, payload("c", [{ filename: "main.c", content: '#include <stdio.h>\nint main(void) { puts("c"); return 0; }' }]));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.compile.code, 0);
    assert.equal(r.json.run.stdout, "c\n");
  });

  it("an unknown language is 400 {message} (ExecutionError); a wrong key is 401 (UnexpectedError)", async () => {
    const unknown = await pyston("POST", "execute/", key, payload("cobol", [{ content: "x" }]));
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(typeof unknown.json.message, "string");
    assert.equal((await pyston("GET", "runtimes/", "sk_live_wrongwrongwrongwrongwrongwrong12")).status, 401);
  });
});
