// npm run bench:compile-cache — what scoping the compile cache per tenant costs (docs/languages.md,
// "Compile cache"), on a mix of submissions like a contest's or a course's: TENANTS tenants each
// send the course's shared starter program (the same source for all), then their own solutions,
// each sent again a few times (another stdin, a re-run). The same sequence runs twice on one
// engine, each time with fresh sources: once with every request under one tenant (the cache as it
// was: shared by all), once under each submission's own tenant (scoped). Printed per mode: the hit
// rate and the wall time of a request on a hit and on a miss, and of all requests.
// BENCH_REPS scales the tenants (default 1 → 6 tenants, 3 solutions each, 3 sends each).
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine } from "../fleet/src/node-engine.ts";
import { row } from "./stats.ts";

const scale = Number(process.env.BENCH_REPS ?? 1);
const TENANTS = 6 * scale;
const SOLUTIONS = 3;
const SENDS = 3;
const STARTER_SENDS = 2;

const dir = mkdtempSync(join(tmpdir(), "bench-compile-cache-"));
const engine = await createEngine({ stateDir: join(dir, "state"), slots: 1, cgroupParent: "codecell-bench" });
if (!engine.health().ready) throw new Error(`engine not ready: ${engine.health().reasons.join("; ")}`);

interface Send {
  tenant: string;
  language: string;
  code: string;
}

const c = (tag: string) => `#include <stdio.h>\n/* ${tag} */\nint main(void) { long a, s = 0; while (scanf("%ld", &a) == 1) s += a; printf("%ld\\n", s); }`;
const cpp = (tag: string) =>
  `#include <bits/stdc++.h>\n// ${tag}\nint main() { long a, s = 0; while (std::cin >> a) s += a; std::cout << s << "\\n"; }`;

/** The mix, in the order a day's submissions might come: starters first, then solutions interleaved. */
function mix(round: string): Send[] {
  const sends: Send[] = [];
  for (let t = 0; t < TENANTS; t++)
    for (let k = 0; k < STARTER_SENDS; k++) sends.push({ tenant: `tenant-${t}`, language: "cpp", code: cpp(`starter ${round}`) });
  for (let s = 0; s < SOLUTIONS; s++)
    for (let k = 0; k < SENDS; k++)
      for (let t = 0; t < TENANTS; t++) {
        const language = (t + s) % 2 ? "c" : "cpp";
        const tag = `solution ${round} ${t} ${s}`;
        sends.push({ tenant: `tenant-${t}`, language, code: language === "c" ? c(tag) : cpp(tag) });
      }
  return sends;
}

async function measure(label: string, scoped: boolean): Promise<string[]> {
  const hits: number[] = [];
  const misses: number[] = [];
  for (const send of mix(randomUUID())) {
    const start = performance.now();
    const outcome = await engine.execute({ language: send.language, code: send.code, stdin: "1 2 3\n", tenantId: scoped ? send.tenant : "shared" });
    if (outcome.result.verdict !== "AC") throw new Error(`${send.language}: ${outcome.result.verdict} ${outcome.result.stderr}`);
    (outcome.compileCacheHit ? hits : misses).push(performance.now() - start);
  }
  const all = [...hits, ...misses];
  const total = all.reduce((a, b) => a + b, 0);
  return [
    `${label}: ${all.length} requests, ${hits.length} hits (${((100 * hits.length) / all.length).toFixed(0)}%), ` +
      `${(total / 1000).toFixed(1)} s in all, mean ${(total / all.length).toFixed(0)} ms`,
    `  ${row("a hit (run only)", hits)}`,
    `  ${row("a miss (compile + run)", misses)}`,
  ];
}

try {
  const shared = await measure("shared by all tenants (before)", false);
  const scoped = await measure("scoped per tenant (now)", true);
  console.log([`compile cache, ${TENANTS} tenants, C and C++, one slot`, ...shared, ...scoped].join("\n"));
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
