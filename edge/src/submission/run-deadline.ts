// How long a run with tests may take from its start (docs/edge.md, "Deadlines"): the node runs its
// tests within their wall-time budget, counted as they run, so the edge's deadline must cover the
// compiles, that budget and the last test started before it ran out. Pure.
import { CHECKER_LIMIT_DEFAULTS, INTERACTOR_WALL_MARGIN_MS } from "../../../proto/checker-rules.ts";
import { TESTS_WALL_BUDGET_MS } from "../../../proto/submission-rules.ts";
import type { RunOptions } from "../contracts/submission.ts";
import { COMPILE_MAXIMA, NODE_MAXIMA } from "../plans/plan-caps.ts";

/** Time beside the runs themselves: sandbox set-up per test, the node's queue hand-over, the network. */
export const TESTS_RUN_SLACK_MS = 30_000;

/**
 * The least time from its start a run with tests needs (0 without tests): the program's compile,
 * the checker's and the interactor's compiles, the tests' budget, one more test (its wall limit and its checker's),
 * and the slack. The edge allows a run the larger of this and MAX_RUN_MS.
 */
export function testsRunMs(options: RunOptions | undefined): number {
  // A live session's program lives up to its session's maximum, after its compile.
  if (options?.live) return (options.compile_limits?.wall_time_ms || COMPILE_MAXIMA.wall_time_ms) + options.live.max_ms + TESTS_RUN_SLACK_MS;
  if (!options?.tests?.length) return 0;
  const compile = options.compile_limits?.wall_time_ms || COMPILE_MAXIMA.wall_time_ms;
  const checker = options.checker ? COMPILE_MAXIMA.wall_time_ms + (options.checker.limits.wall_time_ms || CHECKER_LIMIT_DEFAULTS.wall_time_ms) : 0;
  const wall = options.limits?.wall_time_ms || NODE_MAXIMA.max_wall_time_ms;
  // An interactor runs beside the program (no time of its own per test) once it is compiled.
  const interactor = options.interactor ? COMPILE_MAXIMA.wall_time_ms + INTERACTOR_WALL_MARGIN_MS : 0;
  return compile + checker + interactor + (options.tests_wall_budget_ms ?? TESTS_WALL_BUDGET_MS) + wall + TESTS_RUN_SLACK_MS;
}
