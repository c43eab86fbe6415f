// What the runtimes reuse to start, on the real kernel: each run finds its toolchain's shipped,
// read-only start-up data usable inside the sandbox, and writes none of it (docs/languages.md,
// "Start-up"). Python's standard library comes as precompiled bytecode beside its sources; every
// offered JDK maps its class-data-sharing archive.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ExecuteOutcome } from "../../fleet/src/engine.ts";
import { requireKernel } from "../helpers.ts";
import { useEngine } from "../kernel-fixtures.ts";

const { engine } = useEngine("codecell-startup-");

const shown = (outcome: ExecuteOutcome) => `${outcome.result.verdict} ${outcome.result.evidence.verdict_cause}: ${outcome.result.stderr.slice(0, 600)}`;

/** Prints whether json's .pyc is one the import system accepts for its source, and whether anyone could write it. */
const PYTHON_BYTECODE = `import importlib.util, json, os, sys
import helper
cached = json.__cached__
with open(cached, "rb") as f:
    header = f.read(16)
source = os.stat(json.__file__)
fresh = header[:4] == importlib.util.MAGIC_NUMBER and int.from_bytes(header[4:8], "little") == 0 \\
    and int.from_bytes(header[8:12], "little") == int(source.st_mtime) & 0xFFFFFFFF \\
    and int.from_bytes(header[12:16], "little") == source.st_size & 0xFFFFFFFF
print(fresh, os.access(os.path.dirname(cached), os.W_OK), sys.flags.dont_write_bytecode, os.path.exists("__pycache__"))
`;

describe("runtime start-up data", { skip: !requireKernel(), concurrency: true }, () => {
  it("python: the standard library's precompiled bytecode is current and read-only; nothing is byte-compiled into /box", async () => {
    const files = [{ path: "helper.py", content: "X = 1\n" }];
    const outcome = await engine.execute({ language: "python", code: PYTHON_BYTECODE, stdin: "", files });
    assert.equal(outcome.result.verdict, "AC", shown(outcome));
    assert.equal(outcome.result.stdout, "True False 1 False\n");
  });

  it("java: every offered JDK's run maps its class-data-sharing archive", async () => {
    const code = 'public class Main { public static void main(String[] a) { System.out.println(System.getProperty("java.vm.info")); } }';
    const versions = engine.languages().filter((info) => info.name === "java").map((info) => info.version);
    assert.ok(versions.length > 0);
    for (const version of versions) {
      const outcome = await engine.execute({ language: "java", version, code, stdin: "" });
      assert.equal(outcome.result.verdict, "AC", shown(outcome));
      assert.match(outcome.result.stdout, /\bsharing\b/, `java ${version}: ${outcome.result.stdout}`);
    }
  });
});
