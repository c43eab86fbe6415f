// The edge's shape, checked the way a reviewer would by grep: edge and fleet share only proto/,
// edge/src has no import circle (type-only imports count), no Durable Object file outgrows one
// sitting, and Durable Object stubs are made in one place.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { ROOT } from "./harness.ts";

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts")).map((f) => join(ROOT, dir, f));
}

/** Relative imports and re-exports of a file, resolved to absolute paths. */
function imports(file: string): string[] {
  const src = readFileSync(file, "utf8");
  return [...src.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)";?$/gm)].map((m) => resolve(dirname(file), m[1]!));
}

describe("edge structure", () => {
  it("fleet/ never imports edge/, edge/ never imports fleet/", () => {
    const cross = (from: string, to: string) =>
      sources(from).flatMap((f) => imports(f).filter((d) => d.startsWith(join(ROOT, to) + "/")).map((d) => `${relative(ROOT, f)} → ${relative(ROOT, d)}`));
    assert.deepEqual(cross("fleet", "edge"), []);
    assert.deepEqual(cross("edge", "fleet"), []);
  });

  it("no import circle among edge/src files", () => {
    const root = join(ROOT, "edge", "src");
    const files = sources("edge/src");
    const graph = new Map(files.map((f) => [f, imports(f).filter((d) => d.startsWith(root))]));
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const circles: string[] = [];
    const visit = (n: string) => {
      state.set(n, "open");
      stack.push(n);
      for (const d of graph.get(n) ?? []) {
        if (state.get(d) === "open") circles.push([...stack.slice(stack.indexOf(d)), d].map((x) => relative(root, x)).join(" → "));
        else if (!state.has(d)) visit(d);
      }
      stack.pop();
      state.set(n, "done");
    };
    for (const f of files) if (!state.has(f)) visit(f);
    assert.deepEqual(circles, []);
  });

  it("no Durable Object file over about 300 lines", () => {
    const long = sources("edge/src/do").map((f) => [relative(ROOT, f), readFileSync(f, "utf8").split("\n").length] as const).filter(([, n]) => n > 320);
    assert.deepEqual(long, []);
  });

  it("stubs are made in edge/src/stubs.ts only", () => {
    const inline = sources("edge/src").filter((f) => !f.endsWith("stubs.ts") && /idFromName\(/.test(readFileSync(f, "utf8")));
    assert.deepEqual(inline.map((f) => relative(ROOT, f)), []);
  });
});
