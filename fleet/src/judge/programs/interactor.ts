// An interactor (docs/languages.md, "Interactors"): tenant code like a checker, prepared the same
// way (compiled once per submission), that runs beside the program in every run: each one's
// stdout is the other's stdin (Sandbox.runInteractive). It runs as `interactor input.txt
// output.txt`, with the test's stdin as input.txt, and its exit code is the verdict
// (checker-verdict.ts). What it writes to output.txt stands for the program's output: a checker,
// or the built-in compare against the expected output, judges that.
import type { EngineChecker, EngineRequest } from "../../engine.ts";
import type { Sandbox } from "../../sandbox/sandbox.ts";
import type { ExecutionRecord, InteractiveOutcome, Limits, RunSpec } from "../../sandbox/run-spec.ts";
import { signalName } from "../../sandbox/verdict.ts";
import { INTERACTOR_IO_FILES, INTERACTOR_WALL_MARGIN_MS } from "../../../../proto/checker-rules.ts";
import { checkerMessage, checkerVerdict } from "./checker-verdict.ts";
import { checkerLimits, type PreparedChecker } from "./custom-checker.ts";
import type { RunOnce } from "../tests.ts";

const SIGPIPE = 13;

/** A checker's limits, with at least the program's wall time (they run side by side). */
export function interactorLimits(interactor: EngineChecker, program: Limits): Limits {
  const limits = checkerLimits(interactor);
  return { ...limits, wallTimeMs: Math.max(limits.wallTimeMs, program.wallTimeMs + INTERACTOR_WALL_MARGIN_MS) };
}

/** Each run: the program and the interactor at once; the record's stdout is the interactor's output.txt. */
export function interactiveRunOnce(
  sandbox: Sandbox,
  program: Omit<RunSpec, "stdin">,
  interactor: PreparedChecker,
  request: EngineRequest,
  signal?: AbortSignal,
): RunOnce {
  const [input, output] = INTERACTOR_IO_FILES;
  const { onOutput } = request;
  return async (stdin, test) => {
    const pair = await sandbox.runInteractive(
      { ...program, ...(onOutput ? { onOutput: (stream, data) => onOutput(stream, data, test) } : {}) },
      {
        ...interactor,
        files: [...(interactor.files ?? []), { name: input, content: stdin }],
        outputFiles: [{ name: output, maxBytes: program.limits.outputBytes }],
      },
      signal,
    );
    const written = pair.interactor.outputFiles.get(output) ?? new Uint8Array(0);
    // The record's stdout is output.txt (the program's own goes to the interactor): its output as sent.
    onOutput?.("stdout", written, test);
    const result = interactiveVerdict(pair);
    return { ...pair.program, result: { ...result, stdout: new TextDecoder().decode(written) }, stdoutBytes: written };
  };
}

/**
 * The order rule, as testlib's: a program that failed (TLE, MLE, RE, ...) before the interactor
 * gave its verdict gets its own verdict; otherwise the interactor's exit code decides, and a
 * program that then failed anyway keeps its failure over the interactor's AC. An interactor
 * killed by SIGPIPE after the program ended was cut off by a program that stopped early: WA.
 */
export function interactiveVerdict({ program, interactor, programEndedFirst }: InteractiveOutcome): ExecutionRecord {
  const ran = program.result;
  const said = interactor.result;
  const message = checkerMessage(interactor.stderrBytes);
  const evidence = { exit_code: said.exit_code, cause: said.evidence.verdict_cause, message, points: null };
  const withInteractor = (record: ExecutionRecord): ExecutionRecord => ({ ...record, evidence: { ...record.evidence, interactor: evidence } });
  if (ran.verdict === "IE" || ran.evidence.verdict_cause === "idleness") return withInteractor(ran);
  if (ran.verdict !== "AC" && (programEndedFirst || said.verdict === "AC")) return withInteractor(ran);
  if (programEndedFirst && said.signal === SIGPIPE) {
    const why = `wrong answer: the program stopped reading before the interaction was over (the interactor got ${signalName(SIGPIPE)})`;
    const judged = { ...ran.evidence, verdict_cause: "wrong_answer", verdict_actor: "interactor" as const, interactor: evidence };
    return { ...ran, verdict: "WA", error_message: why, evidence: judged };
  }
  return checkerVerdict(ran, said, interactor.stderrBytes, "interactor");
}
