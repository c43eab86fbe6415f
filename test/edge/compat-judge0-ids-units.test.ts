// Judge0 CE compatibility, pure: language ids (and table by table) and statuses.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ResultRecord } from "../../proto/record.ts";
import { OWN_IDS_FROM, judge0Languages, majorMinor, runtimeForId } from "../../edge/src/compat/judge0/languages.ts";
import { judge0Status } from "../../edge/src/compat/judge0/statuses.ts";
import { RUNTIMES, record, rt } from "./compat-fixtures.ts";

describe("Judge0 language ids", () => {
  it("keeps Judge0's id for the same language and version, the classic id for a default, own ids for the rest", () => {
    const ids = new Map(judge0Languages(RUNTIMES).map((l) => [`${l.runtime.language} ${l.runtime.version}`, l.id]));
    assert.equal(ids.get("python 3.11.2"), 92);
    assert.equal(ids.get("java 17.0.17"), 91);
    assert.equal(ids.get("go 1.23.4"), 107);
    assert.equal(ids.get("go 1.19.8"), 60);
    assert.equal(ids.get("c 12.2.0"), 50);
    assert.ok(ids.get("java 25.0.1")! >= OWN_IDS_FROM);
    assert.equal(new Set(ids.values()).size, RUNTIMES.length, "ids are unique");
    assert.equal(majorMinor("22.08.0"), "22.8");
  });
  it("an id of Judge0 CE we do not list runs the language's default; an unknown id is null", () => {
    assert.equal(runtimeForId(71, RUNTIMES)?.version, "3.11.2");
    assert.equal(runtimeForId(102, RUNTIMES)?.version, "22.21.0", "Node 22 asked, Node 22 given");
    assert.equal(runtimeForId(95, RUNTIMES)?.version, "1.19.8");
    assert.equal(runtimeForId(9999, RUNTIMES), null);
  });
});

describe("Judge0 statuses", () => {
  const cases: [Partial<ResultRecord>, number][] = [
    [{ job_status: "pending", verdict: null }, 1], [{ job_status: "running", verdict: null }, 2], [{}, 3],
    [{ verdict: "WA" }, 4], [{ verdict: "TLE" }, 5],
    [{ verdict: "RE", evidence: { verdict_cause: "compile_error" } as ResultRecord["evidence"] }, 6],
    [{ verdict: "RE", signal: 11, exit_code: null, evidence: { verdict_cause: "segmentation_fault" } as ResultRecord["evidence"] }, 7],
    [{ verdict: "FSE", signal: 25 }, 8], [{ verdict: "RE", signal: 8 }, 9], [{ verdict: "RE", signal: 6 }, 10],
    [{ verdict: "RE", exit_code: 3, evidence: { verdict_cause: "nonzero_exit" } as ResultRecord["evidence"] }, 11],
    [{ verdict: "MLE" }, 12], [{ verdict: "SIG", signal: 15 }, 12], [{ verdict: "IE" }, 13], [{ job_status: "error", verdict: null }, 13],
  ];
  for (const [over, id] of cases) {
    it(`${over.job_status ?? "completed"} ${over.verdict ?? ""} ${over.signal ?? ""} → ${id}`, () => assert.equal(judge0Status(record(over)).id, id));
  }
});

describe("Judge0 ids, table by table", () => {
  // Each Judge0 CE id and the language and version it names.
  const TABLE: [number, string, string, string][] = [
    [71, "python", "3.8.1", "Python (3.8.1)"], [92, "python", "3.11.2", "Python (3.11.2)"], [100, "python", "3.12.5", "Python (3.12.5)"], [109, "python", "3.13.2", "Python (3.13.2)"],
    [50, "c", "9.2.0", "C (GCC 9.2.0)"], [48, "c", "7.4.0", "C (GCC 7.4.0)"], [49, "c", "8.3.0", "C (GCC 8.3.0)"], [103, "c", "14.1.0", "C (GCC 14.1.0)"],
    [54, "cpp", "9.2.0", "C++ (GCC 9.2.0)"], [52, "cpp", "7.4.0", "C++ (GCC 7.4.0)"], [53, "cpp", "8.3.0", "C++ (GCC 8.3.0)"], [105, "cpp", "14.1.0", "C++ (GCC 14.1.0)"],
    [62, "java", "13.0.1", "Java (JDK 13.0.1)"], [91, "java", "17.0.6", "Java (JDK 17.0.6)"],
    [63, "javascript", "12.14.0", "JavaScript (Node.js 12.14.0)"], [93, "javascript", "18.15.0", "JavaScript (Node.js 18.15.0)"],
    [97, "javascript", "20.17.0", "JavaScript (Node.js 20.17.0)"], [102, "javascript", "22.08.0", "JavaScript (Node.js 22.08.0)"],
    [74, "typescript", "3.7.4", "TypeScript (3.7.4)"], [94, "typescript", "5.0.3", "TypeScript (5.0.3)"], [101, "typescript", "5.6.2", "TypeScript (5.6.2)"],
    [60, "go", "1.13.5", "Go (1.13.5)"], [95, "go", "1.18.5", "Go (1.18.5)"], [106, "go", "1.22.0", "Go (1.22.0)"], [107, "go", "1.23.5", "Go (1.23.5)"],
    [73, "rust", "1.40.0", "Rust (1.40.0)"], [108, "rust", "1.85.0", "Rust (1.85.0)"],
  ];

  it("a runtime of exactly Judge0's version keeps Judge0's id and is named the Judge0 way", () => {
    const runtimes = TABLE.map(([, language, version]) => rt(language, version));
    const listed = judge0Languages(runtimes);
    assert.deepEqual(listed.map((l) => [l.id, l.name]), TABLE.map(([id, , , name]) => [id, name]));
    for (const [id, language, version] of TABLE) assert.deepEqual(runtimeForId(id, runtimes), rt(language, version), String(id));
  });

  it("an id of a version we lack: the same major version if we have one, else the language's default", () => {
    const ours = [rt("python", "3.9.0"), rt("python", "2.7.18", { default: true }), rt("java", "21.0.1", { default: true }), rt("java", "17.0.17")];
    assert.equal(runtimeForId(71, ours)?.version, "3.9.0", "Python 3.8 asked: a Python 3");
    assert.equal(runtimeForId(91, ours)?.version, "17.0.17", "Java 17 asked: our 17");
    assert.equal(runtimeForId(62, ours)?.version, "21.0.1", "Java 13 asked, no 13: the default");
    assert.equal(runtimeForId(62, [rt("java", "21.0.1"), rt("java", "25.0.1")])?.version, "21.0.1", "no default marked: the first");
    assert.equal(runtimeForId(73, ours), null, "a language we do not run");
  });

  it("ids are distinct: a second runtime of a matched major takes the next Judge0 id of that major, then ids of ours", () => {
    const twins = [rt("go", "1.23.5", { default: true }), rt("go", "1.23.9"), rt("c", "99.0", { default: true }), rt("cpp", "99.0"), rt("ada", "1.0")];
    const ids = judge0Languages(twins).map((l) => l.id);
    assert.deepEqual(ids, [107, 60, 50, OWN_IDS_FROM, OWN_IDS_FROM + 1]);
    assert.equal(judge0Languages(twins)[4]!.name, "ada (1.0)");
    assert.equal(majorMinor("v1"), null);
    assert.equal(majorMinor("17"), "17.0");
  });
});
