// Input files at relative paths with subdirectories ("lib/util.h"), on the real kernel; names
// that could leave /box, repeat, or clash with another file's directories are refused before
// anything runs.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { before } from "../hooks.ts";
import { checkInputFiles, InputFileNameError } from "../../fleet/src/sandbox/input-files.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import type { InputFile } from "../../fleet/src/sandbox/run-spec.ts";
import { requireKernel } from "../helpers.ts";
import { useSandbox } from "../kernel-fixtures.ts";

const FIRST_ID = 61_400;
const { sandbox, stateDir } = useSandbox({ firstId: FIRST_ID });

const DEEP = "a/b/c/d/e/f/g/h.txt"; // 8 levels: the most allowed

const BAD_NAMES: [string, RegExp][] = [
  ["../escape", /"\.\." segment/],
  ["lib/../../etc/passwd", /"\.\." segment/],
  ["./main.c", /"\." segment/],
  ["/etc/passwd", /relative/],
  ["lib//util.h", /empty path segment/],
  ["lib/", /empty path segment/],
  ["", /non-empty/],
  ["a/b/c/d/e/f/g/h/i.txt", /more than 8 levels/],
  ["with space.c", /not allowed in a file name \(" "\)/],
  ["colon:name", /not allowed/],
  ["new\nline", /not allowed/],
  ["tab\tname", /not allowed/],
  ["nul\0byte", /not allowed/],
  ["no-break\u00a0space", /not allowed/],
  ["lone\ud800surrogate", /not allowed/],
  [`${"x".repeat(254)}.c`, /longer than 255 bytes/],
  [`${"é".repeat(128)}`, /longer than 255 bytes/],
];

describe("input file names (no kernel needed)", () => {
  for (const [name, problem] of BAD_NAMES) {
    it(`refuses ${JSON.stringify(name.slice(0, 40))}`, () => {
      assert.throws(() => checkInputFiles([{ name, content: "" }]), (error: Error) => error instanceof InputFileNameError && problem.test(error.message));
    });
  }
  it("refuses a name given twice, and a file where another needs a directory", () => {
    assert.throws(() => checkInputFiles([{ name: "lib/a.h", content: "" }, { name: "lib/a.h", content: "" }]), /given twice/);
    assert.throws(() => checkInputFiles([{ name: "lib", content: "" }, { name: "lib/a.h", content: "" }]), /"lib": is a file, but "lib\/a.h" needs it to be a directory/);
    assert.throws(() => checkInputFiles([{ name: "x/y/z", content: "" }, { name: "x/y", content: "" }]), /"x\/y": is a file/);
  });
  it("accepts plain names, nested paths, dotfiles and 8 levels", () => {
    assert.doesNotThrow(() => checkInputFiles([{ name: "main.c", content: "" }, { name: "lib/util.h", content: "" }, { name: "lib/.hidden", content: "" }, { name: "..x", content: "" }, { name: DEEP, content: "" }]));
  });
  it("accepts the names the language layer makes from programs (Java classes in any script, $)", () => {
    assert.doesNotThrow(() => checkInputFiles([{ name: "你好.java", content: "" }, { name: "$Dollar_1.java", content: "" }, { name: "Über/ü.c", content: "" }, { name: `${"é".repeat(127)}.`, content: "" }]));
  });
});

describe("nested input files in the sandbox", { skip: !requireKernelQuiet() }, () => {
  it("are readable at their paths; their directories belong to the program and are writable", async () => {
    const files: InputFile[] = [
      { name: "main.sh", content: "cat lib/util.h a/b/c/d/e/f/g/h.txt Über/ü.txt; lib/run.sh; stat -c '%u %a %F' lib a/b/c/d/e/f/g; touch lib/new && echo wrote\n" },
      { name: "lib/util.h", content: "#define UTIL 1\n" },
      { name: "lib/run.sh", content: "#!/bin/sh\necho nested executable\n", executable: true },
      { name: DEEP, content: new Uint8Array([0x64, 0x65, 0x65, 0x70, 0x0a]) },
      { name: "Über/ü.txt", content: "unicode\n" },
    ];
    const { result } = await sandbox.run({ argv: ["/bin/sh", "main.sh"], files, limits: RUN_LIMITS });
    assert.equal(result.verdict, "AC", `${result.error_message} ${result.stderr}`);
    assert.equal(result.stdout, `#define UTIL 1\ndeep\nunicode\nnested executable\n${FIRST_ID} 755 directory\n${FIRST_ID} 755 directory\nwrote\n`);
  });

  it("a bad name rejects the run before anything runs; the node stays ready and stages nothing", async () => {
    for (const [name] of BAD_NAMES) {
      await assert.rejects(
        sandbox.run({ argv: ["/bin/sh", "-c", "echo ran"], files: [{ name: "ok.txt", content: "x" }, { name, content: "y" }], limits: RUN_LIMITS }),
        InputFileNameError,
      );
    }
    await assert.rejects(
      sandbox.run({ argv: ["/bin/true"], files: [{ name: "lib", content: "" }, { name: "lib/a.h", content: "" }], limits: RUN_LIMITS }),
      /needs it to be a directory/,
    );
    assert.equal(sandbox.health().ready, true, sandbox.health().reasons.join("; "));
    const staged = readdirSync(join(stateDir, "run"), { recursive: true }).filter((entry) => /(^|\/)(in-\d+|stdin)$/.test(String(entry)));
    assert.deepEqual(staged, []);
    const { result } = await sandbox.run({ argv: ["/bin/sh", "-c", "ls -A"], limits: RUN_LIMITS });
    assert.deepEqual([result.verdict, result.stdout], ["AC", ""]);
  });
});

describe("what a request's files cannot be in /box is the request's own error", { skip: !requireKernelQuiet() }, () => {
  it("files that do not fit the work dir: RE work_dir_full naming the file, nothing runs; the sandbox stays ready", async () => {
    const limits = { ...RUN_LIMITS, workDirBytes: 256 * 1024 };
    const files: InputFile[] = [{ name: "small.txt", content: "x" }, { name: "lib/big.bin", content: new Uint8Array(300 * 1024) }];
    const { result } = await sandbox.run({ argv: ["/bin/sh", "-c", "echo ran"], files, limits });
    assert.equal(result.verdict, "RE", `${result.evidence.verdict_cause}: ${result.error_message}`);
    assert.equal(result.evidence.verdict_cause, "work_dir_full");
    assert.match(result.error_message ?? "", /do not fit in the work dir \(256 KiB\).*lib\/big\.bin/);
    assert.equal(result.stdout, "");
    assert.deepEqual(sandbox.health().reasons, []);
    assert.equal(sandbox.health().ready, true);
    const next = await sandbox.run({ argv: ["/bin/sh", "-c", "echo ran"], files: [{ name: "small.txt", content: "x" }], limits });
    assert.deepEqual([next.result.verdict, next.result.stdout], ["AC", "ran\n"]);
  });
});

describe("a staged file (a compiled program too large for the compile cache)", { skip: !requireKernelQuiet() }, () => {
  it("is bound read-only outside /box, does not count against the work dir, and is gone once released", async () => {
    const content = new Uint8Array(3 * 1024 * 1024).fill(7);
    const staged = await sandbox.stageFile(content, true);
    assert.ok(existsSync(staged.path));
    // The wall limit is not under test: generous, for a slow (emulated, loaded) machine.
    const limits = { ...RUN_LIMITS, workDirBytes: 1024 * 1024, wallTimeMs: 120_000 };
    const script = "wc -c < /opt/program/main; stat -c '%a' /opt/program/main; (echo x >> /opt/program/main) 2>/dev/null || echo read-only; ls -A /box";
    const { result } = await sandbox.run({ argv: ["/bin/sh", "-c", script], binds: [{ hostPath: staged.path, sandboxPath: "/opt/program/main" }], limits });
    assert.equal(result.verdict, "AC", `${result.error_message} ${result.stderr}`);
    assert.equal(result.stdout, `${content.length}\n755\nread-only\n`);
    staged.release();
    staged.release();
    assert.equal(existsSync(staged.path), false);
  });
});

function requireKernelQuiet(): boolean {
  try {
    return requireKernel();
  } catch {
    return true;
  }
}
