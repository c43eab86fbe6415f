// The check server's reports (fleet/src/judge/programs/check-report.ts): read out of stdout chunks however
// they are cut, anything else breaks the stream for good, and a report becomes the record a
// fresh run of the checker would have had.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { countersBetween, ReportReader, reportRecord, type CheckReport } from "../../fleet/src/judge/programs/check-report.ts";
import { CHECKER_LIMITS } from "../../fleet/src/judge/programs/custom-checker.ts";

function reportBytes(fields: Partial<Record<"magic" | "kind" | "value" | "flags" | "cpu" | "wall" | "rss", bigint>>, stderr = ""): Buffer {
  const header = Buffer.alloc(64);
  const values = [fields.magic ?? 0x31444b43n, fields.kind ?? 0n, fields.value ?? 0n, fields.flags ?? 0n, fields.cpu ?? 0n, fields.wall ?? 0n, fields.rss ?? 0n, BigInt(Buffer.byteLength(stderr))];
  values.forEach((value, index) => header.writeBigUInt64LE(value, index * 8));
  return Buffer.concat([header, Buffer.from(stderr)]);
}

const report = (extra: Partial<CheckReport>): CheckReport => ({
  exit: { kind: "exited", code: 0 }, cpuTimeout: false, wallTimeout: false, killedByServer: false, cpuUsec: 0, wallUsec: 0, memoryPeakBytes: 0, stderr: new Uint8Array(), ...extra,
});
const unread = { oomKills: NaN, pidsLimitHits: NaN };
const none = { oomKills: 0, pidsLimitHits: 0 };

describe("check reports", () => {
  it("reads reports cut anywhere, one after another", () => {
    const bytes = Buffer.concat([reportBytes({ value: 1n, cpu: 1500n }, "wrong answer"), reportBytes({ kind: 1n, value: 11n })]);
    const reader = new ReportReader();
    const got: CheckReport[] = [];
    for (let at = 0; at < bytes.length; at += 7) {
      reader.push(bytes.subarray(at, at + 7));
      for (let next = reader.next(); next; next = reader.next()) got.push(next);
    }
    assert.equal(got.length, 2);
    assert.deepEqual(got[0]!.exit, { kind: "exited", code: 1 });
    assert.equal(got[0]!.cpuUsec, 1500);
    assert.equal(Buffer.from(got[0]!.stderr).toString(), "wrong answer");
    assert.deepEqual(got[1]!.exit, { kind: "signaled", signal: 11 });
  });

  for (const [label, bytes] of [
    ["a wrong magic number", reportBytes({ magic: 1n })],
    ["an unknown kind of end", reportBytes({ kind: 2n })],
    ["stderr longer than 4 KiB", reportBytes({}, "x".repeat(4097))],
  ] as const) {
    it(`${label} breaks the stream for good`, () => {
      const reader = new ReportReader();
      reader.push(bytes);
      reader.push(reportBytes({}));
      assert.equal(reader.next(), undefined);
      assert.equal(reader.broken, true);
    });
  }

  it("a report is the record of a fresh run: the verdict rules are the sandbox's", () => {
    const cause = (extra: Partial<CheckReport>, counters = none) => reportRecord(report(extra), counters, CHECKER_LIMITS).evidence.verdict_cause;
    assert.equal(cause({}), "normal_exit");
    assert.equal(cause({ exit: { kind: "exited", code: 3 } }), "nonzero_exit");
    assert.equal(cause({ exit: { kind: "signaled", signal: 11 } }), "segmentation_fault");
    assert.equal(cause({ exit: { kind: "signaled", signal: 9 }, killedByServer: true, cpuTimeout: true }), "cpu_timeout");
    assert.equal(cause({ exit: { kind: "signaled", signal: 9 }, killedByServer: true, wallTimeout: true }), "wall_timeout");
    assert.equal(cause({ exit: { kind: "signaled", signal: 9 } }, { oomKills: 1, pidsLimitHits: 0 }), "oom_kill");
    assert.equal(cause({ exit: { kind: "signaled", signal: 9 } }, none), "signal", "the cgroup saw no OOM kill: a SIGKILL of the checker's own");
    assert.equal(cause({ exit: { kind: "signaled", signal: 9 } }, unread), "oom_kill", "unreadable counters: a SIGKILL the server did not send is the OOM killer's");
    assert.equal(cause({ exit: { kind: "signaled", signal: 9 }, killedByServer: true, wallTimeout: true }, unread), "wall_timeout");
    const record = reportRecord(report({ exit: { kind: "exited", code: 7 }, cpuUsec: 2_000, wallUsec: 5_000 }), none, CHECKER_LIMITS);
    assert.equal(record.exit_code, 7);
    assert.equal(record.cpu_time_secs, 0.002);
    assert.equal(record.wall_time_secs, 0.005);
  });

  it("counters between readings; NaN when either could not be read", () => {
    const reading = (oomKillEvents: number, errors: string[] = []) => ({
      memoryLimitBytes: 0, memoryPeakBytes: 0, oomEvents: oomKillEvents, oomKillEvents, cpuUsageUsec: 0, processCount: 0, processLimit: 0, pidsLimitHits: 0, errors,
    });
    assert.deepEqual(countersBetween(reading(1), reading(3)), { oomKills: 2, pidsLimitHits: 0 });
    assert.ok(Number.isNaN(countersBetween(undefined, reading(3)).oomKills));
    assert.ok(Number.isNaN(countersBetween(reading(1), reading(3, ["memory.oom_control: gone"])).oomKills));
  });
});
