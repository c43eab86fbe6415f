// bench:bytes's two sides: the code of a base commit in a git worktree of its own ("before") and the
// working tree the bench runs from ("after"), each started as a real stack from its own
// scripts/stack (so each side's edge bundle, fleet node and launcher are its own).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, statfsSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { cmdline, stackProcesses } from "./edge-processes.ts";
import { Inspector } from "./bytes-heap.ts";

export type StackModule = typeof import("../scripts/stack/index.ts");

/** The working tree this bench runs from. */
export const HERE = join(import.meta.dirname, "..");

const log = (msg: string) => console.error(`[bench:bytes] ${msg}`);
const git = (...args: string[]) => execFileSync("git", ["-C", HERE, ...args], { encoding: "utf8" }).trim();

/**
 * The "before" tree: `dir` as given, or a detached worktree of `base` under the temp dir, made once
 * and reused (its node_modules a symlink to this tree's; its launcher built on first use).
 */
export function beforeTree(dir: string | undefined, base: string): string {
  const commit = git("rev-parse", "--verify", `${base}^{commit}`);
  const tree = dir ?? join(tmpdir(), `codecell-bytes-before-${commit.slice(0, 12)}`);
  if (!dir) {
    const at = existsSync(tree) ? spawnSync("git", ["-C", tree, "rev-parse", "HEAD"], { encoding: "utf8" }).stdout.trim() : "";
    if (at !== commit) {
      if (existsSync(tree)) {
        throw new Error(`${tree} exists but is not a worktree at ${commit}: remove it (git worktree remove --force ${tree}) or pass --before`);
      }
      log(`making a worktree of ${commit.slice(0, 12)} at ${tree}`);
      git("worktree", "add", "--detach", tree, commit);
    }
  }
  if (!existsSync(join(tree, "scripts", "stack", "index.ts"))) throw new Error(`${tree}: no scripts/stack/index.ts (not a codecell tree of this shape)`);
  if (!existsSync(join(tree, "node_modules"))) symlinkSync(join(HERE, "node_modules"), join(tree, "node_modules"));
  buildLauncher(tree);
  return tree;
}

/** The sandbox launcher of a tree (`npm ci`'s prepare step), built when missing. */
export function buildLauncher(tree: string): void {
  if (existsSync(join(tree, "fleet", "launcher", "build", "codecell-launcher"))) return;
  log(`building the launcher of ${tree}`);
  execFileSync("bash", [join(tree, "fleet", "launcher", "build.sh")], { cwd: tree, stdio: "inherit" });
}

const TMPFS = 0x01021994;

/** A temp dir on the machine's disk (not tmpfs: the edge's SQLite commits are to pay their fsyncs). */
export function diskTempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `codecell-bytes-${name}-`));
  if (statfsSync(dir).type === TMPFS) throw new Error(`${dir} is on tmpfs; set TMPDIR to a directory on disk`);
  return dir;
}

/** Limits that do not bind the bench's own traffic (its polling, the neighbour's loop): the default plan's caps stay. */
const VARS = {
  ENVIRONMENT: "development", SYNC_HOLD_MS: "30000", WATCHDOG_MS: "10000", HEALTH_TTL_MS: "5000",
  QUEUE_CAPACITY: "10000", RATE_LIMIT_PER_MIN: "1000000", MAX_IN_FLIGHT: "1000",
};

export interface Stack {
  tree: string;
  mod: StackModule;
  edge: Awaited<ReturnType<StackModule["startEdge"]>>;
  fleet: Awaited<ReturnType<StackModule["startFleet"]>>;
  workerdPid: number;
  nodePid: number;
  /** The node's documented memory budget, when its tree has one; the V8 heap flag it runs with, if any. */
  nodeBudget: { bytes: number; source: string } | null;
  nodeHeapFlag: string | null;
  /** Sessions on workerd's isolates (bench/bytes-heap.ts), or null and why not. */
  inspector: Inspector | null;
  inspectorNote: string;
  /** The scenario's key, and the neighbour's (another project's). */
  key: string;
  neighbourKey: string;
  stop(): Promise<void>;
}

/** The port workerd's inspector takes with EDGE_INSPECTOR=1 (scripts/edge-dev.ts: Miniflare's inspectorPort, default 9229). */
const INSPECTOR_PORT = 9229;

/**
 * A fleet node and an edge (state on disk) from `tree`'s own code, the node registered, two keys.
 * With `inspector`, the edge runs with EDGE_INSPECTOR=1 (workerd's DevTools inspector on
 * localhost:9229, the mechanism both trees' scripts/edge-dev.ts have) when that port is free, and
 * the stack holds a session on each of workerd's isolates.
 */
export async function startStack(tree: string, inspector: boolean): Promise<Stack> {
  const mod = (await import(pathToFileURL(join(tree, "scripts", "stack", "index.ts")).href)) as StackModule;
  const fleetState = diskTempDir("fleet");
  const edgeState = diskTempDir("edge");
  let fleet: Stack["fleet"] | undefined;
  let edge: Stack["edge"] | undefined;
  let sessions: Inspector | null = null;
  let inspectorNote = inspector ? "" : "off (--no-inspector)";
  if (inspector && ((await mod.portOpen(INSPECTOR_PORT, "127.0.0.1")) || (await mod.portOpen(INSPECTOR_PORT, "::1")))) {
    inspectorNote = `port ${INSPECTOR_PORT} is in use`;
  }
  const stop = async () => {
    sessions?.close();
    await edge?.stop();
    await fleet?.stop();
    mod.cleanup(edgeState);
    mod.cleanup(fleetState);
  };
  try {
    fleet = await mod.startFleet({ stateDir: fleetState });
    edge = await mod.startEdge({ persistDir: edgeState, vars: VARS, ...(inspectorNote === "" ? { env: { EDGE_INSPECTOR: "1" } } : {}) });
    const ops = mod.admin(edge);
    await ops.mustRegisterNode(fleet);
    const [a, b] = [await ops.newKey(), await ops.newKey()];
    const procs = stackProcesses(edge.proc.pid, fleet.proc.pid);
    const nodeHeapFlag = cmdline(fleet.proc.pid!).split(" ").find((arg) => arg.startsWith("--max-old-space-size=")) ?? null;
    if (inspectorNote === "") {
      const c = await Inspector.connect(procs.workerd[0]!);
      if (typeof c === "string") inspectorNote = c;
      else sessions = c;
    }
    return {
      tree, mod, edge, fleet, workerdPid: procs.workerd[0]!, nodePid: fleet.proc.pid!, nodeBudget: await nodeBudget(tree), nodeHeapFlag,
      inspector: sessions, inspectorNote, key: a.key, neighbourKey: b.key, stop,
    };
  } catch (e) {
    const edgeLog = edge ? `\n--- edge log (tail) ---\n${edge.log().slice(-4000)}` : "";
    const logs = `${edgeLog}${fleet ? `\n--- node log (tail) ---\n${fleet.log().slice(-4000)}` : ""}`;
    await stop();
    throw new Error(`${String(e instanceof Error ? e.message : e)}${logs}`);
  }
}

const NODE_MEMORY = join("fleet", "src", "service", "node-memory.ts");

/**
 * The fleet node's memory budget as its tree documents it (fleet/src/service/node-memory.ts: a
 * baseline plus FLEET_INFLIGHT_MIB plus FLEET_MAX_RETAINED_RESULT_MIB, their defaults unless this
 * environment sets them), or null for a tree without one.
 */
async function nodeBudget(tree: string): Promise<Stack["nodeBudget"]> {
  if (!existsSync(join(tree, NODE_MEMORY))) return null;
  try {
    const m = (await import(pathToFileURL(join(tree, NODE_MEMORY)).href)) as {
      heapFlagFromEnv?: (env: NodeJS.ProcessEnv) => string;
      DEFAULT_HEAP_MIB?: number;
    };
    const mib = m.heapFlagFromEnv ? Number(/=(\d+)$/.exec(m.heapFlagFromEnv(process.env))?.[1]) : m.DEFAULT_HEAP_MIB;
    return mib && Number.isFinite(mib) ? { bytes: mib * 1048576, source: NODE_MEMORY } : null;
  } catch {
    return null;
  }
}
