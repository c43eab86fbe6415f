// node:test's file-level `before` and `after`, made safe to run with a name pattern that matches
// nothing. Node then starts a file's `after` hooks without waiting for its `before` hooks (seen on
// Node 24.21), so a teardown ran while the sandbox or stack it tears down was still being built:
// mounts stayed behind and the process never ended. Here every `after` first waits for the
// `before` hooks already started. Test files import `before` and `after` from here.
import { after as nodeAfter, before as nodeBefore } from "node:test";

type Hook = (context: unknown) => unknown;
type HookOptions = Parameters<typeof nodeBefore>[1];

const started: Promise<unknown>[] = [];

export function before(fn: Hook, options?: HookOptions): void {
  nodeBefore((context) => {
    const run = Promise.resolve().then(() => fn(context));
    started.push(run.catch(() => undefined));
    return run;
  }, options);
}

export function after(fn: Hook, options?: HookOptions): void {
  nodeAfter(async (context) => {
    await Promise.all(started);
    return fn(context);
  }, options);
}
