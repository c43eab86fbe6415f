// The edge's shape, checked the way a reviewer would by grep: edge and fleet share only proto/,
// edge/src's folders form layers that import only downward and its files no circle (type-only
// imports count), no Durable Object file outgrows one sitting, and Durable Object stubs are made in
// one place.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { ROOT } from "./harness.ts";

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts")).map((f) => join(ROOT, dir, f));
}

/** Relative imports (type-only and side-effect ones too) and re-exports of a file, resolved to absolute paths. */
function imports(file: string): string[] {
  const src = readFileSync(file, "utf8");
  const from = [...src.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)";?$/gm)].map((m) => m[1]!);
  const bare = [...src.matchAll(/^import\s+"(\.[^"]+)";?$/gm)].map((m) => m[1]!);
  return [...from, ...bare].map((path) => resolve(dirname(file), path));
}

/**
 * edge/src's layers, from the bottom up: a folder (or top-level file) imports only from a lower
 * layer, never from its own layer's other members or from above; a folder's subfolders are part of
 * it. So the folders have no import circle, and each layer can be read knowing only those below it.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["lib"], // infrastructure: HTTP helpers, KV blobs, SSE framing, rate windows, leases
  ["keys"], // API keys' records in KV and the units a key's object is built from
  ["contracts"], // the objects' RPC interfaces
  ["env.ts"], // the Worker's bindings
  ["stubs.ts"], // the one place stubs are made
  ["plans", "scheduling", "webhooks", "doors"], // one concern each, on the contracts
  ["submission", "dashboard"], // a submission's state machine in its shard; the operators' page
  ["submit", "metrics"], // a request's checks and its admission; request metrics
  ["registry"], // the node registry (its messages use the submit checks' zod glue)
  ["routes"], // the native HTTP surface
  ["compat"], // Judge0 and Piston, mapped onto the native path and its routes
  ["openapi"], // the document, built from the schemas the routes and compat parse
  ["session"], // live sessions: their protocols (messages from openapi), admission, stdin
  ["do"], // the Durable Object classes
  ["index.ts"], // the Worker's entry
];

/** The layer a file of edge/src belongs to: its top folder's, or its own for a top-level file. */
function unitOf(root: string, file: string): string {
  return relative(root, file).split("/")[0]!;
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

  it("every edge/src folder has a layer, and the layers name only what exists", () => {
    const root = join(ROOT, "edge", "src");
    const units = new Set(sources("edge/src").map((f) => unitOf(root, f)));
    const ranked = new Set(LAYERS.flat());
    assert.deepEqual([...units].filter((u) => !ranked.has(u)).sort(), [], "add these to LAYERS");
    assert.deepEqual([...ranked].filter((u) => !units.has(u)).sort(), [], "remove these from LAYERS");
  });

  it("edge/src's folders import only from lower layers", () => {
    const root = join(ROOT, "edge", "src");
    const rank = new Map(LAYERS.flatMap((layer, i) => layer.map((unit) => [unit, i] as const)));
    const upward = sources("edge/src").flatMap((f) => {
      const from = unitOf(root, f);
      return imports(f)
        .filter((d) => d.startsWith(root + "/") && unitOf(root, d) !== from && (rank.get(unitOf(root, d)) ?? Infinity) >= (rank.get(from) ?? -1))
        .map((d) => `${relative(root, f)} → ${relative(root, d)}`);
    });
    assert.deepEqual(upward, []);
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
