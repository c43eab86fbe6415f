// What a real-kernel test file starts with: an engine or a sandbox made before its tests (skipped
// without the kernel, failing under CI) and closed, its state removed, after them. Each is given
// back at once as a stand-in that reaches the real one once it is made, so a test file reads
// `const { engine, stateDir } = useEngine(...)` and uses both as they are.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import type { Engine, EngineOptions } from "../fleet/src/engine.ts";
import { createEngine } from "../fleet/src/node-engine.ts";
import { Sandbox, type SandboxOptions } from "../fleet/src/sandbox/sandbox.ts";
import { requireKernel, tempStateDir } from "./helpers.ts";
import { after, before } from "./hooks.ts";

export function useEngine(prefix: string, options: Partial<EngineOptions> = {}): { engine: Engine; stateDir: string } {
  const stateDir = tempStateDir(prefix);
  let engine: Engine | undefined;
  before(async () => {
    if (!requireKernel()) return;
    engine = await createEngine({ stateDir, slots: 2, cgroupParent: "codecell-test", ...options });
    assert.deepEqual(engine.health().reasons, []);
  });
  after(async () => {
    await engine?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });
  return { engine: standIn(() => engine, "engine"), stateDir };
}

export function useSandbox(options: Partial<SandboxOptions> = {}): { sandbox: Sandbox; stateDir: string } {
  const stateDir = tempStateDir();
  let sandbox: Sandbox | undefined;
  before(async () => {
    if (!requireKernel()) return;
    sandbox = await Sandbox.create({ stateDir, slots: 1, cgroupParent: "codecell-test", ...options });
    assert.deepEqual(sandbox.health().reasons, []);
  });
  after(async () => {
    await sandbox?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });
  return { sandbox: standIn(() => sandbox, "sandbox"), stateDir };
}

function standIn<T extends object>(real: () => T | undefined, what: string): T {
  return new Proxy({} as T, {
    get(_, property) {
      const target = real();
      if (!target) throw new Error(`the ${what} is not made yet (its before hook has not run, or the kernel is missing)`);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
