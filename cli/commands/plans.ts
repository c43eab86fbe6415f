// codecell plans …: list, show, set (create or change a plan; only the options given change).
import type { Command } from "commander";
import { CliError, client } from "../admin-client.ts";
import type { Schemas } from "../admin-client.ts";
import { print, table } from "../output.ts";

type PlanUpdate = Schemas["PlanUpdateRequest"];

const COLUMNS = [
  "name", "rate_per_minute", "max_in_flight", "max_wall_time_ms", "max_cpu_time_ms",
  "max_memory_mb", "max_processes", "max_output_kb", "max_tests", "max_batch",
];

/** Option flag → plan field. */
const FIELDS: [flag: string, field: keyof PlanUpdate, what: string][] = [
  ["--rate <n>", "rate_per_minute", "requests per minute (rolling window)"],
  ["--max-in-flight <n>", "max_in_flight", "submissions in flight at once"],
  ["--max-wall-time-ms <n>", "max_wall_time_ms", "highest wall-time limit a request may ask for"],
  ["--max-cpu-time-ms <n>", "max_cpu_time_ms", "highest CPU-time limit"],
  ["--max-memory-mb <n>", "max_memory_mb", "highest memory limit"],
  ["--max-processes <n>", "max_processes", "highest process limit"],
  ["--max-output-kb <n>", "max_output_kb", "highest output limit per stream"],
  ["--max-tests <n>", "max_tests", "most test cases in one submission"],
  ["--max-batch <n>", "max_batch", "most submissions in one batch (and ids in GET /api/results)"],
  ["--checker-wall-time-ms <n>", "checker_wall_time_ms", "a custom checker's wall-time limit per test"],
  ["--checker-cpu-time-ms <n>", "checker_cpu_time_ms", "a custom checker's (and an interactor's) CPU-time limit per test"],
  ["--checker-memory-mb <n>", "checker_memory_mb", "a custom checker's (and an interactor's) memory limit"],
  ["--compile-wall-time-ms <n>", "compile_wall_time_ms", "highest compile wall-time limit a request may ask for (default 30000)"],
  ["--compile-cpu-time-ms <n>", "compile_cpu_time_ms", "highest compile CPU-time limit (default 60000)"],
  ["--compile-memory-mb <n>", "compile_memory_mb", "highest compile memory limit (default 1024)"],
  ["--tests-wall-budget-ms <n>", "tests_wall_budget_ms", "wall time a submission's tests may use in all; the rest are SKIPPED"],
];

/** commander's camelCase name of a flag: --max-memory-mb → maxMemoryMb. */
const optionKey = (flag: string) => flag.split(" ")[0]!.replace(/^--/, "").replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

function wholeNumber(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new CliError(`${flag.split(" ")[0]} must be a whole number (got '${value}')`);
  return Number(value);
}

export function registerPlans(program: Command): void {
  const plans = program.command("plans").description("plans: the rate, in-flight cap and request caps a key is held to");

  plans
    .command("list")
    .description("list the plans (the default plan always)")
    .action(async (_opts: unknown, cmd: Command) => {
      const list = await client(cmd).call("get", "/admin/plans");
      print(cmd, list, () => table(list, COLUMNS));
    });

  plans
    .command("show")
    .description("show one plan")
    .argument("<name>")
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      const p = await client(cmd).call("get", "/admin/plans/{name}", { params: { name } });
      print(cmd, p, () => table([p], COLUMNS));
    });

  const set = plans
    .command("set")
    .description("create or change a plan; fields not given keep their value (a new plan starts from the default plan)")
    .argument("<name>");
  for (const [flag, , what] of FIELDS) set.option(flag, what);
  set.action(async (name: string, opts: Record<string, string | undefined>, cmd: Command) => {
    const body: PlanUpdate = {};
    for (const [flag, field] of FIELDS) {
      const value = opts[optionKey(flag)];
      if (value !== undefined) body[field] = wholeNumber(flag, value);
    }
    const p = await client(cmd).call("put", "/admin/plans/{name}", { params: { name }, body });
    print(cmd, p, () => `plan ${p.name} set\n\n${table([p], COLUMNS)}`);
  });
}
