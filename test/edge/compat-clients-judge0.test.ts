// Judge0's Python clients against the real stack (workerd and a real fleet node). They cannot be
// installed here (their registry is not reachable), so each test sends the request sequence the
// client's documented calls make, read from its public source, from the client's construction to
// its last call, and reads the answers the way the client does (the fields it parses, their types):
// the official `judge0` SDK 0.0.8 (judge0/judge0-python), `judge0-client` (Roslovets-Inc), and
// `judge0api` 0.1.19 (vCra). The query-parameter token is never in the edge's output.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { zipSync } from "fflate";
import { before } from "../hooks.ts";
import { keyOnPlan, request, useStack } from "./harness.ts";
import type { Res } from "./harness.ts";
import { assertDocumented } from "./openapi-check.ts";

const stack = useStack({ edge: { logLevel: "debug", vars: { SYNC_HOLD_MS: "20000", RATE_LIMIT_PER_MIN: "1000" } } });
let key: string;
let made: Promise<unknown> | undefined;
/** In each describe: the stack's own hooks run first (a file's top-level hooks start together). */
const useKey = () => before(async () => {
  made ??= keyOnPlan(stack, "judge0-clients", { max_batch: 5 }).then((c) => (key = c.key!));
  await made;
});

const b64 = (s: string) => Buffer.from(s).toString("base64");
const unb64 = (s: string | null) => (s === null ? null : Buffer.from(s, "base64").toString("utf8"));
const zip = (files: Record<string, string>) => Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)])))).toString("base64");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One call of a client: the path as the client builds it, checked against the document by its normalised path. */
async function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Res> {
  const r = await request(stack.edge.base, method, `/judge0${path}`, { headers, body });
  assertDocumented(method, `/judge0${path.split("?")[0]!.replace(/\/$/, "")}`, r);
  return r;
}

/** The judge0 SDK's Config model: every field, typed (pydantic: bool, int, float, list[str]). */
const SDK_CONFIG_INTS = ["callbacks_max_tries", "max_extract_size", "max_file_size", "max_max_file_size", "max_max_processes_and_or_threads",
  "max_memory_limit", "max_number_of_runs", "max_processes_and_or_threads", "max_queue_size", "max_stack_limit", "max_submission_batch_size",
  "memory_limit", "number_of_runs", "stack_limit"];
const SDK_CONFIG_FLOATS = ["callbacks_timeout", "cpu_extra_time", "cpu_time_limit", "max_cpu_extra_time", "max_cpu_time_limit", "max_wall_time_limit",
  "submission_cache_duration", "wall_time_limit"];
const SDK_CONFIG_BOOLS = ["allow_enable_network", "allow_enable_per_process_and_thread_memory_limit", "allow_enable_per_process_and_thread_time_limit",
  "enable_additional_files", "enable_batched_submissions", "enable_callbacks", "enable_command_line_arguments", "enable_compiler_options", "enable_network",
  "enable_per_process_and_thread_memory_limit", "enable_per_process_and_thread_time_limit", "enable_submission_delete", "enable_wait_result",
  "maintenance_mode", "redirect_stderr_to_stdout", "use_docs_as_homepage"];

/** The SDK's Submission.set_attributes: status by id, datetimes parsed with its one format, times as floats. */
function sdkAttributes(s: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [attr, value] of Object.entries(s)) {
    if (attr === "language_id" || attr === "status_id") continue;
    if (["stdout", "stderr", "compile_output"].includes(attr)) out[attr] = value ? unb64(value as string) : null;
    else if (attr === "status") out.status = (value as { id: number }).id;
    else if ((attr === "created_at" || attr === "finished_at") && value !== null) {
      assert.match(String(value), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{1,6}Z$/, `${attr} in %Y-%m-%dT%H:%M:%S.%fZ`);
      out[attr] = value;
    } else if (["time", "wall_time"].includes(attr) && value !== null) out[attr] = Number.parseFloat(String(value));
    else out[attr] = value;
  }
  for (const status of [out.status]) assert.ok(Number.isInteger(status) && (status as number) >= 1 && (status as number) <= 14, `status ${status}`);
  return out;
}

/** judge0.Client(endpoint, headers): its construction, and the calls judge0.run makes. */
class Judge0Sdk {
  headers: Record<string, string>;
  languages: { id: number; name: string }[] = [];
  config: Record<string, unknown> = {};
  constructor(headers: Record<string, string>) {
    this.headers = { ...headers, "X-Judge0-App": "Judge0 Python SDK", "X-Judge0-App-Version": "0.0.8" };
  }
  async construct(): Promise<this> {
    const langs = await call("GET", "/languages", this.headers);
    assert.equal(langs.status, 200, langs.text);
    for (const l of langs.json) assert.ok(Number.isInteger(l.id) && typeof l.name === "string", JSON.stringify(l));
    this.languages = langs.json;
    const config = await call("GET", "/config_info", this.headers);
    assert.equal(config.status, 200, config.text);
    for (const f of SDK_CONFIG_INTS) assert.ok(Number.isInteger(config.json[f]), f);
    for (const f of SDK_CONFIG_FLOATS) assert.equal(typeof config.json[f], "number", f);
    for (const f of SDK_CONFIG_BOOLS) assert.equal(typeof config.json[f], "boolean", f);
    assert.ok(Array.isArray(config.json.allowed_languages_for_compile_options));
    this.config = config.json;
    return this;
  }
  /** get_language_id for an alias: LANGUAGE_TO_LANGUAGE_ID[client.version], the version from /about. */
  async languageId(alias: "PYTHON" | "C" | "MULTI_FILE"): Promise<number> {
    const about = await call("GET", "/about", this.headers);
    assert.equal(about.json.version, "1.13.1", "the SDK's language table has 1.13.1");
    const id = { PYTHON: 71, C: 50, MULTI_FILE: 89 }[alias];
    assert.ok(this.languages.some((l) => l.id === id), `is_language_supported(${id})`);
    return id;
  }
  async createOne(body: Record<string, unknown>): Promise<string> {
    const r = await call("POST", "/submissions?base64_encoded=true&wait=false", this.headers, body);
    assert.equal(r.status, 201, r.text);
    return r.json.token;
  }
  async createBatch(bodies: Record<string, unknown>[]): Promise<string[]> {
    assert.ok(bodies.length <= (this.config.max_submission_batch_size as number));
    const r = await call("POST", "/submissions/batch?base64_encoded=true", this.headers, { submissions: bodies });
    assert.equal(r.status, 201, r.text);
    return r.json.map((x: { token: string }) => x.token);
  }
  /** judge0.wait: get_submission(s) with fields=* until no status is 1 or 2. */
  async wait(tokens: string[]): Promise<Record<string, unknown>[]> {
    for (;;) {
      const r = tokens.length === 1
        ? await call("GET", `/submissions/${tokens[0]}?base64_encoded=true&fields=*`, this.headers)
        : await call("GET", `/submissions/batch?base64_encoded=true&fields=*&tokens=${tokens.join(",")}`, this.headers);
      assert.equal(r.status, 200, r.text);
      const subs = (tokens.length === 1 ? [r.json] : r.json.submissions).map(sdkAttributes);
      if (subs.every((s: Record<string, unknown>) => (s.status as number) > 2)) return subs;
      await sleep(200);
    }
  }
}

describe("the official judge0 SDK 0.0.8", () => {
  useKey();
  it("judge0.Client(endpoint, headers={X-Auth-Token}) is built (GET /languages, /config_info), then judge0.run with test cases as one batch", async () => {
    const client = await new Judge0Sdk({ "X-Auth-Token": key }).construct();
    const language = await client.languageId("PYTHON");
    const cases = [["Bob", "Hello, Bob!"], ["Alice", "Hello, Alice!"], ["Charlie", "Hello, Charlie!"]];
    const tokens = await client.createBatch(cases.map(([input, expected]) => ({
      source_code: b64("print(f'Hello, {input()}!')"), language_id: language, stdin: b64(input!), expected_output: b64(expected!),
    })));
    const results = await client.wait(tokens);
    assert.deepEqual(results.map((r) => [r.status, r.stdout]), cases.map(([, expected]) => [3, `${expected}\n`]));
    assert.ok(results.every((r) => typeof r.time === "number" && typeof r.memory === "number"));
  });

  it("configured through its environment (JUDGE0_CE_ENDPOINT, JUDGE0_CE_AUTH_HEADERS as JSON), judge0.run of one C program with stdin", async () => {
    const client = await new Judge0Sdk(JSON.parse(JSON.stringify({ "X-Auth-Token": key }))).construct();
    const source = '#include <stdio.h>\nint main() { int a, b; scanf("%d %d", &a, &b); printf("%d\\n", a + b); char n[10]; scanf("%s", n); printf("Hello, %s!\\n", n); return 0; }\n';
    const token = await client.createOne({ source_code: b64(source), language_id: await client.languageId("C"), stdin: b64("\n3 5\nBob\n") });
    const [result] = await client.wait([token]);
    assert.equal(result!.status, 3);
    assert.equal(result!.stdout, "8\nHello, Bob!\n");
  });

  it("a multi-file program: language MULTI_FILE (89), source_code empty, a Filesystem of run, compile and sources", async () => {
    const client = await new Judge0Sdk({ "X-Auth-Token": key }).construct();
    const token = await client.createOne({
      source_code: "", language_id: await client.languageId("MULTI_FILE"),
      additional_files: zip({ compile: "gcc -O2 -o hello main.c\n", run: "./hello \"$(cat name.txt)\"\n", "main.c": '#include <stdio.h>\nint main(int c, char **v) { printf("hello, %s\\n", v[1]); }\n', "name.txt": "multi" }),
    });
    const [result] = await client.wait([token]);
    assert.equal(result!.status, 3, JSON.stringify(result));
    assert.equal(result!.stdout, "hello, multi\n");
  });

  it("a failing compile script is Judge0's Compilation Error with the script's output in compile_output", async () => {
    const client = await new Judge0Sdk({ "X-Auth-Token": key }).construct();
    const token = await client.createOne({ source_code: "", language_id: 89, additional_files: zip({ compile: "echo compiling\ngcc x.c\n", run: "./a.out\n", "x.c": "int main( {" }) });
    const [result] = await client.wait([token]);
    assert.equal(result!.status, 6);
    assert.match(String(result!.compile_output), /compiling[\s\S]*error/);
  });
});

/** judge0-client's Judge0Client(base_url, auth_token): one httpx client with X-Auth-Token, Accept and Content-Type. */
const jcHeaders = () => ({ "X-Auth-Token": key, Accept: "application/json", "Content-Type": "application/json" });

async function judge0ClientDetail(token: string): Promise<Record<string, unknown>> {
  for (;;) {
    const r = await call("GET", `/submissions/${token}?base64_encoded=true`, jcHeaders());
    assert.equal(r.status, 200, r.text);
    assert.equal(typeof r.json.token, "string");
    assert.ok(Number.isInteger(r.json.status.id) && typeof r.json.status.description === "string");
    if (r.json.status.id > 2) return { ...r.json, stdout: unb64(r.json.stdout), message: unb64(r.json.message), compile_output: unb64(r.json.compile_output) };
    await sleep(200);
  }
}

describe("judge0-client (async, httpx)", () => {
  useKey();
  it("create_submission(SingleFileSubmission), get_submission, get_workers, get_about, get_isolate, get_license", async () => {
    const created = await call("POST", "/submissions?base64_encoded=true", jcHeaders(), { source_code: b64('print("Hello, Judge0!")'), language_id: 71 });
    assert.equal(created.status, 201, created.text);
    const detail = await judge0ClientDetail(created.json.token);
    assert.equal(detail.stdout, "Hello, Judge0!\n");
    const workers = await call("GET", "/workers", jcHeaders());
    assert.equal(workers.status, 200, workers.text);
    assert.ok(workers.json.length > 0);
    for (const w of workers.json) {
      assert.equal(typeof w.queue, "string");
      for (const f of ["size", "available", "idle", "working", "paused", "failed"]) assert.ok(Number.isInteger(w[f]), `${w.queue} ${f}`);
    }
    assert.ok(workers.json.some((w: { queue: string; available: number }) => w.queue.startsWith("python@") && w.available > 0), workers.text);
    const about = await call("GET", "/about", jcHeaders());
    for (const f of ["version", "homepage", "source_code", "maintainer"]) assert.equal(typeof about.json[f], "string", f);
    for (const path of ["/isolate", "/license"]) {
      const r = await call("GET", path, jcHeaders());
      assert.equal(r.status, 200);
      assert.match(String(r.headers["content-type"]), /^text\/plain/);
      assert.ok(r.text.length > 0);
    }
  });

  it("create_submission(MultiFileSubmission): language_id 89, no source_code, a zip of run and the files", async () => {
    const body = { language_id: 89, stdin: b64("4\n"), additional_files: zip({ run: "python3 square.py\n", "square.py": "print(int(input()) ** 2)\n" }) };
    const created = await call("POST", "/submissions?base64_encoded=true", jcHeaders(), body);
    assert.equal(created.status, 201, created.text);
    const detail = await judge0ClientDetail(created.json.token);
    assert.equal(detail.stdout, "16\n", JSON.stringify(detail));
  });
});

describe("judge0api 0.1.19 (requests)", () => {
  useKey();
  const endpoint = "";
  it("Client(endpoint, auth_token) authenticates with the token as a query parameter; submit waits; load reads the client's fields", async () => {
    const auth = await call("POST", `${endpoint}/authenticate?X-Auth-Token=${encodeURIComponent(key)}`, {});
    assert.equal(auth.status, 200, auth.text);
    assert.equal(auth.text, "");
    const session = { "X-Auth-Token": key, "Content-Type": "application/json" };
    const submitted = await call("POST", `${endpoint}/submissions/?base64_encoded=true&wait=true`, session, {
      source_code: b64("print(f'Hello {input()}')"), language_id: 71, stdin: b64("Judge0"), expected_output: b64("Hello Judge0"),
    });
    assert.equal(submitted.status, 201, submitted.text);
    assert.equal(submitted.json.status.id, 3);
    const fields = "stderr,stdout,compile_output,time,memory,token,message,status,exit_code,exit_signal,created_at,finished_at,wall_time,language_id";
    const loaded = await call("GET", `${endpoint}/submissions/${submitted.json.token}/?base64_encoded=true&fields=${fields}`, session);
    assert.equal(loaded.status, 200, loaded.text);
    assert.equal(unb64(loaded.json.stdout), "Hello Judge0\n");
    assert.equal(loaded.json.language_id, 71);
  });

  it("a wrong token: /authenticate is 401 (Client() raises); /authorize is 403, as a Judge0 without authorization", async () => {
    assert.equal((await call("POST", "/authenticate?X-Auth-Token=sk_live_wrongwrongwrongwrongwrongwrong12", {})).status, 401);
    assert.equal((await call("POST", `/authorize?X-Auth-Token=${encodeURIComponent(key)}&X-Auth-User=someone`, {})).status, 403);
  });

  it("the query-parameter token never appears in the edge's output", async () => {
    const wrong = "sk_live_neverloggedneverloggedneverlog1";
    for (const path of ["/statuses", "/authenticate", "/submissions/not-a-token", "/nothing-here"]) {
      await request(stack.edge.base, path === "/authenticate" ? "POST" : "GET", `/judge0${path}?X-Auth-Token=${wrong}`);
      await request(stack.edge.base, path === "/authenticate" ? "POST" : "GET", `/judge0${path}?X-Auth-Token=${encodeURIComponent(key)}`);
    }
    await sleep(500);
    const log = stack.edge.log();
    assert.ok(log.length > 0, "the edge's output was captured");
    assert.ok(!log.includes(wrong) && !log.includes(key), "a key in a URL was logged");
  });
});

describe("Judge0 CE 1.13.1's other routes, in Judge0's shapes", () => {
  useKey();
  const h = () => ({ "X-Auth-Token": key });
  it("version, system_info, statistics, languages/all, a full language, 89's; the home route", async () => {
    const version = await call("GET", "/version", h());
    assert.deepEqual([version.status, version.text], [200, "1.13.1"]);
    assert.deepEqual((await call("GET", "/system_info", h())).json, {});
    const stats = await call("GET", "/statistics", h());
    assert.equal(stats.json.submissions.total, 0);
    assert.equal(Object.keys(stats.json.submissions.last_30_days).length, 30);
    assert.deepEqual([stats.json.languages, stats.json.statuses], [[], []]);
    const all = await call("GET", "/languages/all", h());
    const names = all.json.map((l: { name: string }) => l.name);
    assert.deepEqual(names, [...names].sort(), "by name");
    assert.ok(all.json.every((l: { is_archived: boolean }) => l.is_archived === false));
    assert.ok(all.json.some((l: { id: number; name: string }) => l.id === 89 && l.name === "Multi-file program"), all.text);
    const c = await call("GET", "/languages/50", h());
    assert.deepEqual(Object.keys(c.json), ["id", "name", "is_archived", "source_file", "compile_cmd", "run_cmd"]);
    assert.equal(c.json.source_file, "main.c");
    assert.equal((await call("GET", "/languages/89", h())).json.source_file, null);
    const home = await call("GET", "", h());
    assert.deepEqual([home.status, home.text], [200, ""]);
  });

  it("a batch: none created is 422 with each item's errors; empty or over the plan's cap is Judge0's 400", async () => {
    const none = await call("POST", "/submissions/batch", h(), { submissions: [{ source_code: "x", language_id: 4242 }, { language_id: 71 }] });
    assert.equal(none.status, 422, none.text);
    assert.deepEqual(none.json.map((e: Record<string, unknown>) => Object.keys(e)[0]), ["language_id", "source_code"]);
    const empty = await call("POST", "/submissions/batch", h(), { submissions: [] });
    assert.deepEqual([empty.status, empty.json.error], [400, "there should be at least one submission in a batch"]);
    const many = await call("POST", "/submissions/batch", h(), { submissions: Array.from({ length: 6 }, () => ({ source_code: "print(1)", language_id: 71 })) });
    assert.deepEqual([many.status, many.json.error], [400, "number of submissions in a batch should be less than or equal to 5"]);
  });

  it("the authorized calls (the full list, delete, authorize) are 403 with no body; nothing is deleted", async () => {
    const created = await call("POST", "/submissions?wait=true", h(), { source_code: "print(1)", language_id: 71 });
    for (const [method, path] of [["GET", "/submissions"], ["DELETE", `/submissions/${created.json.token}`], ["POST", "/authorize"]] as const) {
      const r = await call(method, path, h());
      assert.deepEqual([r.status, r.text], [403, ""], `${method} ${path}`);
    }
    assert.equal((await call("GET", `/submissions/${created.json.token}`, h())).status, 200);
  });
});
