// `codecell run -i FILE` through a real pseudo-terminal (pty.ts) against a real stack (a fleet node
// and the Worker on workerd): a typed line reaches the program and its answer comes back before
// the next is typed, Ctrl-D ends its input; Ctrl-C reaches a program that handles SIGINT, which
// decides how the run ends, and the CLI exits with the verdict's status. A compile error shows its diagnostics; a refused key exits 77;
// -i with --tests, --watch, --stdin or --json is a usage error.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, before } from "../hooks.ts";
import { ROOT, cleanup, tempDir, useStack } from "../edge/harness.ts";
import { requireKernel } from "../helpers.ts";
import { cli } from "./cli-helpers.ts";
import { runInPty } from "./pty.ts";

const stack = useStack();
let work = "";
let key = "";

/** A user's environment: the edge's URL and a key, nothing else of codecell's. */
function userEnv(): Record<string, string> {
  const env = { ...process.env } as Record<string, string>;
  for (const name of Object.keys(env)) if (/^(CODECELL_|EDGE_PORT|FLEET_|DEV_API_KEY)/.test(name)) delete env[name];
  return { ...env, CODECELL_URL: stack.edge.base, CODECELL_API_KEY: key, CODECELL_STATE_DIR: work };
}

function live(file: string, code: string) {
  writeFileSync(join(work, file), code);
  return runInPty(join(ROOT, "cli", "codecell"), ["--insecure", "run", "-i", file], { cwd: work, env: userEnv() });
}

describe("codecell run -i on a terminal", { skip: !requireKernel() }, () => {
  before(async () => {
    work = tempDir("run-live");
    key = (await stack.ops.newKey()).key;
  });
  after(() => cleanup(work));

  it("a typed line is answered before the next is typed; Ctrl-D ends the input; AC, exit 0", async () => {
    const run = live("echo.py", "import sys\nfor line in sys.stdin: print('echo:', line.strip(), flush=True)\n");
    run.type("hello\r");
    await run.waitFor(/echo: hello\r\n/);
    run.type("world\r");
    await run.waitFor(/echo: world\r\n/);
    run.type("\x04");
    assert.equal(await run.exit, 0, run.screen());
    assert.match(run.screen(), /^AC · \d+ ms CPU · \d+ ms wall · \d+\.\d MiB\r$/m);
  });

  it("Ctrl-C reaches the program's SIGINT handler, not the CLI; the run's verdict sets the exit status", async () => {
    const run = live("handler.py", [
      "import signal, sys, time",
      "def stop(*_):",
      "    print('caught SIGINT, leaving with 3', flush=True)",
      "    sys.exit(3)",
      "signal.signal(signal.SIGINT, stop)",
      "print('ready', flush=True)",
      "while True: time.sleep(1)",
      "",
    ].join("\n"));
    await run.waitFor(/ready\r\n/);
    run.type("\x03");
    await run.waitFor(/caught SIGINT, leaving with 3/);
    assert.equal(await run.exit, 2, run.screen());
    assert.match(run.screen(), /^RE · /m);
  });

  it("a compile error: the compiler's diagnostics and RE (compile error) on stderr, exit 2", async () => {
    writeFileSync(join(work, "broken.c"), "int main(void) { return undefined_name; }\n");
    const r = await cli(null, ["--insecure", "run", "-i", join(work, "broken.c")], userEnv());
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /undefined_name/);
    assert.match(r.stderr, /^RE \(compile error\)/m);
    assert.equal(r.stdout, "");
  });

  it("a key the edge refuses at the handshake: exit 77, the 401 named", async () => {
    writeFileSync(join(work, "x.py"), "print(1)\n");
    const r = await cli(null, ["--insecure", "run", "-i", join(work, "x.py")], { ...userEnv(), CODECELL_API_KEY: "not-a-key" });
    assert.equal(r.code, 77, r.stderr);
    assert.match(r.stderr, /not authenticated: 401/);
  });

  for (const flags of [["--tests", "cases"], ["--watch"], ["--stdin", "in.txt"], ["--json"]]) {
    it(`-i with ${flags[0]} is a usage error (64)`, async () => {
      writeFileSync(join(work, "x.py"), "print(1)\n");
      const args = flags[0] === "--json" ? ["--json", "run", "-i", "x.py"] : ["run", "-i", "x.py", ...flags];
      const r = await cli(null, ["--insecure", ...args], { ...userEnv() });
      assert.equal(r.code, 64, r.stderr);
      assert.match(r.stderr, new RegExp(`-i cannot be used with ${flags[0]}`));
    });
  }
});
