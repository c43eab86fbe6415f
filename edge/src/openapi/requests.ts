// Request bodies of the public API for the OpenAPI document: the very zod schemas that validate
// requests (submit/validate.ts), registered under component names, and the words for their fields.
import { z } from "zod";
import { acceptedLanguageNames } from "../../../proto/languages.ts";
import { MAX_CODE_BYTES, MAX_STDIN_BYTES } from "../../../proto/limits.ts";
import { submitSchema } from "../submit/validate.ts";

export const requestComponents = z.registry<{ id: string; description?: string }>();

export const submitRequest = submitSchema;
requestComponents.add(submitRequest, { id: "SubmitRequest", description: "A program to run. Unknown fields are refused (400)." });

// The batch envelope is checked by hand in routes/api-batch.ts (each item then alone, by submitSchema).
export const batchRequest = z.strictObject({ submissions: z.array(submitRequest).min(1) });
requestComponents.add(batchRequest, { id: "BatchRequest", description: "1..plan.max_batch (default 20) submissions, each validated alone" });

/**
 * Descriptions of request fields, by component and property. A field is described only once it
 * exists in the schema, so fields of a later request version can be written down ahead of it.
 */
export const FIELD_DOCS: Record<string, Record<string, string>> = {
  SubmitRequest: {
    language: `Language name or alias (${acceptedLanguageNames().join(", ")}); see GET /api/languages`,
    code: `Source code, not empty, at most ${MAX_CODE_BYTES} bytes as UTF-8`,
    stdin: `Standard input, at most ${MAX_STDIN_BYTES} bytes as UTF-8 (default empty)`,
    version: 'A version or alias listed by GET /api/runtimes ("1.23", "1.23.4"); unknown → 400 listing the versions',
    encoding: "base64 applies to code, stdin, expected_output and tests[].stdin/expected_output, and to the record's stdout/stderr",
    expected_output: "Judge a single run against this output with `compare` (not together with tests)",
    compare: "How output is compared: exact, lines (default), tokens, float, identical (bytes), unordered (lines in any order), float_abs, float_rel or " +
      "tokens_ci (ASCII case-insensitive tokens); see docs/api.md",
    float_epsilon: "compare=float: tolerance (absolute or relative, whichever is looser); float_abs: |a−e| ≤ ε; float_rel: |a−e| ≤ ε·|e|. " +
      "> 0 and ≤ 1, default 1e-6",
    tests: "Test cases run one by one against one compiled program, each in a fresh sandbox; a test's `points` (≥ 0) makes the request scored (record score " +
      "and max_score; a test without points is then worth 0)",
    stop_on_first_failure: "Stop after the first failing test (default false)",
    limits: "Narrow the plan's limits for this run; above a cap → 400 naming the field and the cap",
    files: "Additional files beside the main source (relative paths, at most 32, 1 MiB in total)",
    args: "Command-line arguments (at most 64, each ≤ 4096 bytes, no NUL)",
    merge_stderr: "true: the program's stderr is written into its stdout (one stream, in the order written); stderr stays empty",
    compiler_options: "Compiler options from the language's allow-list (at most 32)",
    compile_limits: "Narrow the compile step's limits (compiled languages): each at most the key's plan's compile cap (default plan: " +
      "the node's compile limits)",
    checker: "A testlib-style checker {language, code, files?, version?} judging each run instead of `compare`: run as `checker input.txt output.txt " +
      "answer.txt`; exit 0 AC, 1 WA, 2 presentation error, 7 points; anything else is its own failure (WA, cause checker_failed)",
    interactor: "An interactor {language, code, files?, version?} for an interactive problem: each run, it and the program run at once, each one's stdout " +
      "the other's stdin; run as `interactor input.txt output.txt` with the test's stdin as input.txt; its exit code is the verdict (as a checker's; its own " +
      "failure: WA, cause interactor_failed). A checker, or `compare` against expected_output, then judges its output.txt, which is the record's stdout. " +
      "Both sides waiting on each other: TLE, cause idleness",
  },
};

/** An example body per request component (shown by /docs and used by generated clients' docs). */
export const EXAMPLES: Record<string, unknown> = {
  SubmitRequest: { language: "python", code: "print(input()[::-1])", stdin: "olleh" },
  BatchRequest: { submissions: [{ language: "python", code: "print(1)" }, { language: "c", code: "int main(void){return 0;}" }] },
};
