// A language is one folder (docs/languages.md, "A language is one folder"): the committed index
// modules are the folders' (npm run languages --check), and a language added as one folder, and
// nothing else, in a copy of the repository, is in every list generated from the folders (the
// vocabulary, the Judge0 and Piston maps, the OpenAPI document's language list, the CLI's
// extensions, the node's table) and is offered and run by a node on the real kernel.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { clashes, readManifests } from "../../scripts/languages.ts";
import { MANIFESTS } from "../../languages/index.gen.ts";
import { kernelTestProblems, tempStateDir } from "../helpers.ts";
import { after, before } from "../hooks.ts";

const ROOT = resolve(import.meta.dirname, "..", "..");
const NODE = process.execPath;

/** A copy of what reads the folders, with node_modules linked. */
function repositoryCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), "codecell-language-folder-"));
  for (const path of ["languages", "proto", "fleet", "edge", "cli", "scripts", "package.json"]) cpSync(join(ROOT, path), join(copy, path), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  return copy;
}

/** `multi-file`'s folder copied as a new language, `shell-demo`, with names and ids of its own. */
function addShellDemo(copy: string): void {
  const folder = join(copy, "languages", "shell-demo");
  cpSync(join(copy, "languages", "multi-file"), folder, { recursive: true });
  const manifest = readFileSync(join(folder, "manifest.ts"), "utf8")
    .replace('name: "multi-file"', 'name: "shell-demo", aliases: ["sdemo"]')
    .replace("order: 9,", "")
    .replace('source: { fileName: "run" }', 'source: { fileName: "run", extensions: [".sdemo"] }')
    .replace('judge0: { classicId: 89, display: "Multi-file program" }', 'judge0: { classicId: 9001, display: "Shell demo (%s)" }, piston: { name: "shell-demo", aliases: ["sd"] }');
  assert.match(manifest, /shell-demo.*sdemo[\s\S]*9001[\s\S]*piston/, "the copy's manifest was rewritten");
  writeFileSync(join(folder, "manifest.ts"), manifest);
}

/** What the copy's generated lists say about `shell-demo`, read in a process of its own. */
const PROBE = `
import { canonicalLanguage, CANONICAL_LANGUAGES } from "./proto/languages.ts";
import { mainSourceFileName, takenNameProblem } from "./proto/source-names.ts";
import { judge0Languages, runtimeForId } from "./edge/src/compat/judge0/languages.ts";
import { pistonRuntimes } from "./edge/src/compat/piston/from-native.ts";
import { FIELD_DOCS } from "./edge/src/openapi/requests.ts";
import { languageOf } from "./cli/run/language.ts";
import { findLanguage } from "./fleet/src/languages/table.ts";
const runtime = { language: "shell-demo", version: "5.2.15", aliases: [], default: true, compiled: true, libraries: [] };
console.log(JSON.stringify({
  canonical: canonicalLanguage("sdemo"), listed: CANONICAL_LANGUAGES.at(-1),
  source: mainSourceFileName("shell-demo", ""), taken: takenNameProblem(".multi-file-build.tar", "shell-demo", "run") !== null,
  judge0: judge0Languages([runtime]).map((l) => [l.id, l.name]), byId: runtimeForId(9001, [runtime])?.language,
  piston: pistonRuntimes([runtime]).map((r) => [r.language, r.aliases]),
  openapi: FIELD_DOCS.SubmitRequest.language.includes("shell-demo, sdemo"),
  cli: languageOf("x.sdemo"), table: findLanguage("sdemo")?.compile?.artifact,
}));
`;

/** The copy's engine offers the new language and runs a script in it. */
const RUN = `
import { createEngine } from "./fleet/src/node-engine.ts";
const engine = await createEngine({ stateDir: process.argv[1], slots: 1, cgroupParent: "codecell-test" });
try {
  const offered = engine.languages().filter((l) => l.name === "shell-demo").map((l) => l.version);
  const outcome = await engine.execute({ language: "sdemo", code: 'read x; echo "shell-demo says $x"', stdin: "hi\\n" });
  console.log(JSON.stringify({ offered, language: outcome.language, verdict: outcome.result.verdict, stdout: outcome.result.stdout }));
} finally {
  await engine.close();
}
`;

describe("language folders", () => {
  it("the committed index modules are the folders' (npm run languages --check)", () => {
    execFileSync(NODE, [join(ROOT, "scripts", "languages.ts"), "--check"], { cwd: ROOT, stdio: "pipe" });
    assert.deepEqual(MANIFESTS.map((m) => m.name), ["python", "c", "cpp", "java", "javascript", "typescript", "go", "rust", "multi-file"]);
  });

  it("a name, Judge0 id or Piston name claimed by two folders is refused", async () => {
    const manifests = await readManifests(join(ROOT, "languages"));
    assert.equal(clashes(manifests), null);
    const python = manifests.find((m) => m.name === "python")!;
    const stolen = { ...python, name: "snake", aliases: ["py"], judge0: undefined, piston: undefined, source: { ...python.source, extensions: [] } };
    assert.match(clashes([...manifests, stolen]) ?? "", /name or alias "py" is claimed by both python and snake/);
  });

  describe("a language added as one folder", () => {
    let copy = "";
    before(() => {
      copy = repositoryCopy();
      addShellDemo(copy);
      execFileSync(NODE, [join(copy, "scripts", "languages.ts"), "--root", copy], { cwd: copy, stdio: "pipe" });
    });
    after(() => rmSync(copy, { recursive: true, force: true }));

    it("is in the vocabulary, the file rules, the Judge0 and Piston maps, the OpenAPI list, the CLI and the node's table", () => {
      const seen = JSON.parse(execFileSync(NODE, ["--input-type=module-typescript", "-e", PROBE], { cwd: copy, encoding: "utf8" }));
      assert.deepEqual(seen, {
        canonical: "shell-demo", listed: "shell-demo", source: "run", taken: true,
        judge0: [[9001, "Shell demo (5.2.15)"]], byId: "shell-demo",
        piston: [["shell-demo", ["sd"]]], openapi: true, cli: "shell-demo", table: ".multi-file-build.tar",
      });
    });

    it("is offered and run by a node", { skip: kernelTestProblems().join("; ") || false }, () => {
      const stateDir = tempStateDir("codecell-language-folder-state-");
      try {
        const seen = JSON.parse(execFileSync(NODE, ["--input-type=module-typescript", "-e", RUN, stateDir], { cwd: copy, encoding: "utf8" }));
        assert.equal(seen.offered.length, 1);
        assert.deepEqual({ ...seen, offered: undefined }, { offered: undefined, language: "shell-demo", verdict: "AC", stdout: "shell-demo says hi\n" });
      } finally {
        rmSync(stateDir, { recursive: true, force: true });
      }
    });
  });
});
