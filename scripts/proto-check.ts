// CI guard for the contract: buf lint, buf breaking against main (when main exists), and
// a fresh ts-proto generation that must match the committed proto/gen byte for byte.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const buf = join(import.meta.dirname, "..", "node_modules", ".bin", "buf");
const root = join(import.meta.dirname, "..");
const run = (args: string[]) => execFileSync(buf, args, { cwd: root, stdio: "inherit" });

run(["lint"]);
try {
  execFileSync("git", ["rev-parse", "--verify", "-q", "main"], { cwd: root, stdio: "ignore" });
  run(["breaking", "--against", ".git#branch=main"]);
} catch (error) {
  if ((error as { status?: number }).status !== 1) throw error;
  console.log("proto-check: no main branch yet, breaking-change check skipped");
}

const out = mkdtempSync(join(tmpdir(), "proto-gen-"));
try {
  const template = readFileSync(join(root, "buf.gen.yaml"), "utf8").replace("out: proto/gen", `out: ${out}`);
  const templatePath = join(out, "buf.gen.yaml");
  writeFileSync(templatePath, template);
  run(["generate", "--template", templatePath]);
  const listing = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
      .sort();
  const fresh = listing(out);
  const committed = listing(join(root, "proto", "gen"));
  const stale = fresh.filter((file) => {
    const committedFile = join(root, "proto", "gen", file);
    try {
      return readFileSync(committedFile, "utf8") !== readFileSync(join(out, file), "utf8");
    } catch {
      return true;
    }
  });
  const extra = committed.filter((file) => !fresh.includes(file));
  if (stale.length > 0 || extra.length > 0) {
    console.error(`proto-check: generated code is stale (${[...stale, ...extra].join(", ")}); run: npm run proto:gen`);
    process.exit(1);
  }
  console.log(`proto-check: ${fresh.length} generated files are current`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
