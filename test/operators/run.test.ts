// `codecell run` as a user runs it: a real `npm start` on a non-default EDGE_PORT with its own state
// directory, and cli/codecell as a real process that finds the edge's URL and the API key in the
// state file. Output, verdict line, exit statuses, --tests, --json, --stdin -, --watch.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { ROOT, freePort, tempDir } from "../edge/harness.ts";
import { requireKernel } from "../helpers.ts";

let stack: ChildProcess | undefined;
let stateDir = "";
let work = "";
let edgePort = 0;
let output = "";

/** The environment of a user who has set nothing of codecell's, with the test's state directory. */
function userEnv(): Record<string, string> {
  const env = { ...process.env } as Record<string, string>;
  for (const name of Object.keys(env)) if (/^(CODECELL_|EDGE_PORT|FLEET_|DEV_API_KEY)/.test(name)) delete env[name];
  return { ...env, CODECELL_STATE_DIR: stateDir };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function codecell(args: string[], input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(ROOT, "cli", "codecell"), args, { cwd: work, env: userEnv(), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}

const VERDICT_LINE = /^AC · \d+ ms CPU · \d+ ms wall · \d+\.\d MiB$/m;

before(async () => {
  if (!requireKernel()) return;
  stateDir = tempDir("run-state");
  work = tempDir("run-work");
  edgePort = await freePort();
  const [grpc, web] = [await freePort(), await freePort()];
  stack = spawn(process.execPath, [join(ROOT, "scripts", "start.ts")], {
    cwd: ROOT,
    env: { ...userEnv(), EDGE_PORT: String(edgePort), FLEET_GRPC_PORT: String(grpc), FLEET_GRPC_WEB_PORT: String(web) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  stack.stdout!.on("data", (chunk) => (output += chunk));
  stack.stderr!.on("data", (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${output}`)), 180_000);
    const check = () => {
      if (/codecell is running/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    stack!.stdout!.on("data", check);
    stack!.on("exit", (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
  });
});

after(async () => {
  if (stack?.pid && stack.exitCode === null) {
    const exited = new Promise((resolve) => stack!.once("exit", resolve));
    process.kill(stack.pid, "SIGTERM");
    await exited;
  }
  for (const dir of [stateDir, work]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("codecell run against npm start on a non-default EDGE_PORT", { skip: !requireKernel() }, () => {
  it("codecell run hello.py prints the program's output on stdout and the verdict on stderr, exit 0", async () => {
    assert.equal(JSON.parse(readFileSync(join(stateDir, "dev.json"), "utf8")).edge_url, `https://127.0.0.1:${edgePort}`);
    writeFileSync(join(work, "hello.py"), "import sys\nprint('hello, world')\nprint('to stderr', file=sys.stderr)\n");
    const r = await codecell(["run", "hello.py"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "hello, world\n");
    assert.match(r.stderr, /^to stderr$/m);
    assert.match(r.stderr, VERDICT_LINE);
  });

  it("--tests DIR: a line per test, the overall verdict, exit 1 on a wrong answer", async () => {
    const dir = join(work, "cases");
    mkdirSync(dir);
    writeFileSync(join(dir, "b-wrong.in"), "5\n");
    writeFileSync(join(dir, "b-wrong.out"), "11\n");
    writeFileSync(join(dir, "a-right.in"), "2\n");
    writeFileSync(join(dir, "a-right.out"), "4\n");
    writeFileSync(join(dir, "c-no-expectation.in"), "1\n");
    writeFileSync(join(work, "double.py"), "print(int(input()) * 2)\n");
    const r = await codecell(["run", "double.py", "--tests", dir]);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 3, r.stdout);
    assert.match(lines[0]!, /^a-right\s+AC\s+\d+ ms$/);
    assert.match(lines[1]!, /^b-wrong\s+WA\s+\d+ ms$/);
    assert.match(lines[2]!, /^c-no-expectation\s+AC\s+\d+ ms$/);
    assert.match(r.stderr, /^WA · \d+ ms CPU · .* · 2\/3 tests AC$/m);
  });

  it("a compile error: the compiler's diagnostics and RE on stderr, exit 2", async () => {
    writeFileSync(join(work, "broken.c"), "int main(void) { return undefined_name; }\n");
    const r = await codecell(["run", "broken.c"]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /undefined_name/);
    assert.match(r.stderr, /^RE \(compile error\)/m);
    assert.equal(r.stdout, "");
  });

  it("--json prints the final record and nothing live; the exit status still follows the verdict", async () => {
    writeFileSync(join(work, "exit3.py"), "print('x')\nraise SystemExit(3)\n");
    const r = await codecell(["run", "exit3.py", "--json"]);
    assert.equal(r.code, 2, r.stderr);
    const record = JSON.parse(r.stdout);
    assert.equal(record.verdict, "RE");
    assert.equal(record.exit_code, 3);
    assert.equal(record.stdout, "x\n");
    assert.equal(r.stderr, "");
  });

  it("--stdin - feeds this process's stdin to the program", async () => {
    writeFileSync(join(work, "upper.txt"), "ignored\n");
    writeFileSync(join(work, "upper.py"), "import sys\nprint(sys.stdin.read().upper(), end='')\n");
    const r = await codecell(["run", "upper.py", "--stdin", "-"], "piped in\nsecond line\n");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "PIPED IN\nSECOND LINE\n");
  });

  it("--lang overrides the extension; an unknown extension without it is a usage error (64)", async () => {
    writeFileSync(join(work, "script.txt"), "print(40 + 2)\n");
    const refused = await codecell(["run", "script.txt"]);
    assert.equal(refused.code, 64);
    assert.match(refused.stderr, /cannot tell the language of script\.txt .*pass --lang/);
    assert.equal(refused.stdout, "");
    const r = await codecell(["run", "script.txt", "--lang", "python"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "42\n");
  });

  it("an unknown version is refused by the API with its message (65)", async () => {
    const r = await codecell(["run", "hello.py", "--version", "0.0.1"]);
    assert.equal(r.code, 65, r.stderr);
    assert.match(r.stderr, /version/);
  });

  it("--watch runs again once when the file changes, and Ctrl-C ends it", async () => {
    writeFileSync(join(work, "watched.py"), "print('first')\n");
    const child = spawn(join(ROOT, "cli", "codecell"), ["run", "watched.py", "--watch"], { cwd: work, env: userEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const until = (pattern: RegExp) => new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(stderr)) return;
        child.stderr.off("data", check);
        resolve();
      };
      child.stderr.on("data", check);
      void exited.then(() => reject(new Error(`codecell run --watch exited:\n${stdout}\n${stderr}`)));
      check();
    });
    try {
      await until(/watching watched\.py/);
      assert.equal(stdout, "first\n");
      writeFileSync(join(work, "watched.py"), "print('second')\n");
      await until(/(watching watched\.py[^]*){2}/);
      assert.equal(stdout, "first\nsecond\n");
      assert.equal(stderr.match(/^AC · /gm)?.length, 2, stderr);
      assert.match(stderr, /watched\.py changed: running again/);
    } finally {
      child.kill("SIGINT");
    }
    assert.equal(await exited, 130);
  });
});
