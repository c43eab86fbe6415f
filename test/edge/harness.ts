// Test harness: a real fleet node and the real Worker on workerd, started the one way every stack
// is (scripts/stack/), with the test timers; `useStack()` gives a test file one of each.
import { CANONICAL_LANGUAGES } from "../../proto/languages.ts";
import { languageRefusalBody, unknownLanguage } from "../../proto/language-errors.ts";
import { writeFileSync } from "node:fs";
import { after, before } from "../hooks.ts";
import { LOCAL_TEST_VARS, cleanup, startEdge as startStackEdge, startFleet, type Edge, type EdgeOptions, type Fleet } from "../../scripts/stack/index.ts";
import assert from "node:assert/strict";
import { it } from "node:test";
import { Client, type Res } from "../../scripts/stack/index.ts";
import { admin } from "./checked-admin.ts";

export {
  Client, ROOT, cleanup, freePort, request, sleep, startFleet, tempDir,
  type Edge, type Fleet, type Res,
} from "../../scripts/stack/index.ts";
/** The operator client, its answers validated against docs/openapi.json (checked-admin.ts). */
export { admin } from "./checked-admin.ts";

export const TEST_VARS = LOCAL_TEST_VARS;

/** An edge with the test timers (a test's own `vars` win). */
export function startEdge(opts: EdgeOptions & { operatorToken?: string } = {}): Promise<Edge> {
  return startStackEdge({ ...opts, vars: { ...TEST_VARS, ...opts.vars } });
}

export function writeFile(path: string, text: string): void {
  writeFileSync(path, text);
}

export interface Stack {
  fleet: Fleet;
  edge: Edge;
  ops: ReturnType<typeof admin>;
}

/**
 * A fleet node and an edge for one test file: started before its tests, the node registered with
 * the edge; stopped and cleaned up after. A test may replace `fleet` or `edge` (a restart): the
 * ones in place at the end are stopped.
 */
export function useStack(opts: { fleet?: Parameters<typeof startFleet>[0]; edge?: EdgeOptions & { operatorToken?: string } } = {}): Stack {
  const stack = {} as Stack;
  before(async () => {
    stack.fleet = await startFleet(opts.fleet);
    stack.edge = await startEdge(opts.edge);
    stack.ops = admin(stack.edge);
    const reg = await stack.ops.registerNode(stack.fleet);
    if (reg.status !== 201) throw new Error(`registering the node: ${reg.status} ${reg.text}`);
  });
  after(async () => {
    await stack.edge?.stop();
    await stack.fleet?.stop();
    if (stack.edge) cleanup(stack.edge.persistDir);
    if (stack.fleet) cleanup(stack.fleet.stateDir);
  });
  return stack;
}

/** A key of a new project on plan `plan` (created or merged with `caps`; a rate that leaves room for a suite). */
export async function keyOnPlan(stack: Pick<Stack, "edge" | "ops">, plan: string, caps: Record<string, number> = {}): Promise<Client> {
  assert.equal((await stack.ops.call("PUT", `/admin/plans/${plan}`, { rate_per_minute: 1000, ...caps })).status, 201);
  const p = await stack.ops.call("POST", "/admin/projects", { name: plan });
  const k = await stack.ops.call("POST", `/admin/projects/${p.json.id}/keys`, { name: "k", plan });
  assert.equal(k.status, 201, k.text);
  return new Client(stack.edge.base, k.json.key);
}

/**
 * A checker's or interactor's unknown language and unknown version are refused with the one
 * language refusal both sides send (proto/language-errors.ts): the message as `error`, `available`.
 */
export function refusesLanguages(client: () => Client, base: Record<string, unknown>, role: "checker" | "interactor", judge: Record<string, unknown>): void {
  it(`an unknown ${role} language or version: the one language refusal`, async () => {
    const language = await client().submit({ ...base, [role]: { ...judge, language: "cobol" } }, { wait: true });
    assert.equal(language.status, 400, language.text);
    assert.deepEqual(language.json, languageRefusalBody(unknownLanguage("cobol", CANONICAL_LANGUAGES, role)));
    const version = await client().submit({ ...base, [role]: { ...judge, version: "0.1" } }, { wait: true });
    assert.equal(version.status, 400, version.text);
    assert.match(version.json.error, new RegExp(`^${role}\\.version: unknown version "0\\.1" of ${judge.language}; available: \\d`));
    assert.ok(version.json.available.length > 0, version.text);
  });
}

/** One test per case: the body is refused with 400, that error and a message matching, and no submission made. */
export function itRefuses(client: () => Client, cases: readonly (readonly [string, Record<string, unknown>, string, RegExp])[]): void {
  for (const [label, body, error, message] of cases) {
    it(label, async () => {
      const r: Res = await client().submit(body, { wait: true });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.error, error, r.text);
      assert.match(r.json.message, message, r.text);
      assert.equal(r.json.id, undefined, "no submission was made");
    });
  }
}
