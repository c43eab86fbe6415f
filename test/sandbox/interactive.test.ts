// An interactive pair on the real kernel (docs/languages.md, "Interactors"): the program and the
// interactor run at once in two sandboxes, each one's stdout the other's stdin, and a pair that
// waits on itself is ended long before its wall limit.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { IDLE_WINDOW_MS } from "../../fleet/src/sandbox/idle-watch.ts";
import { RUN_LIMITS } from "../../fleet/src/sandbox/limits.ts";
import { requireKernel } from "../helpers.ts";
import { useSandbox } from "../kernel-fixtures.ts";

const { sandbox } = useSandbox({ cgroupParent: "codecell-test-interactive", firstId: 61_900 });

const WALL_MS = 20_000;
const sh = (script: string) => ({ argv: ["/bin/sh", "-c", script], limits: { ...RUN_LIMITS, wallTimeMs: WALL_MS } });
const interactor = (script: string) => ({ ...sh(script), outputFiles: [{ name: "output.txt", maxBytes: 4096 }] });

describe("interactive pairs", () => {
  it("joins the program's stdout to the interactor's stdin and back", async (t) => {
    if (!requireKernel(t)) return;
    const { program, interactor: judge } = await sandbox.runInteractive(
      sh("read x; echo $((x + 1)); read verdict; echo \"got $verdict\" >&2"),
      interactor('echo 41; read y; if [ "$y" = 42 ]; then echo ok; echo right > output.txt; else echo no; exit 1; fi'),
    );
    assert.equal(judge.result.verdict, "AC", judge.result.error_message ?? "");
    assert.equal(program.result.verdict, "AC", program.result.error_message ?? "");
    assert.equal(program.result.stdout, "", "the program's stdout went to the interactor, not to the record");
    assert.equal(program.result.stderr, "got ok\n");
    assert.equal(Buffer.from(judge.outputFiles.get("output.txt") ?? []).toString(), "right\n");
  });

  it("sees the end of the other side's output when it exits", async (t) => {
    if (!requireKernel(t)) return;
    const { program, interactor: judge, programEndedFirst } = await sandbox.runInteractive(
      sh("exit 3"),
      interactor("cat > /dev/null; echo eof > output.txt"),
    );
    assert.equal(program.result.verdict, "RE");
    assert.equal(judge.result.verdict, "AC");
    assert.equal(programEndedFirst, true);
  });

  it("ends a pair that waits on itself as TLE, cause idleness, long before the wall limit", async (t) => {
    if (!requireKernel(t)) return;
    const { program, interactor: judge } = await sandbox.runInteractive(sh("read x"), interactor("read y"));
    assert.equal(program.result.verdict, "TLE");
    assert.equal(program.result.evidence.verdict_cause, "idleness");
    assert.ok(program.result.evidence.judge_actions.includes("sigkill_on_idleness"));
    assert.equal(judge.result.evidence.verdict_cause, "idleness");
    assert.ok(program.result.wall_time_secs * 1000 < WALL_MS, `ended after ${program.result.wall_time_secs} s`);
    assert.ok(program.result.wall_time_secs * 1000 >= IDLE_WINDOW_MS);
  });

  it("runs the two sides under different users in separate pid namespaces", async (t) => {
    if (!requireKernel(t)) return;
    const { program, interactor: judge } = await sandbox.runInteractive(
      sh("id -u >&2; ps -e -o pid= 2>/dev/null | wc -l >&2; echo hi; read x"),
      interactor("read x; id -u > output.txt; echo bye"),
    );
    assert.equal(program.result.verdict, "AC", program.result.error_message ?? "");
    const programUid = program.result.stderr.split("\n")[0];
    const interactorUid = Buffer.from(judge.outputFiles.get("output.txt") ?? []).toString().trim();
    assert.notEqual(programUid, interactorUid);
  });
});
