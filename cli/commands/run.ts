// codecell run FILE: run a source file on codecell as a user — live output, the verdict and times,
// the exit status mapped from the verdict (cli/run/verdict.ts); --tests DIR runs test cases,
// --json prints the record for scripts, --watch runs again on every change, -i runs it live
// (a session: the terminal's stdin to the program as typed, Ctrl-C to the program).
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import type { SubmitRequest } from "../../client/src/index.ts";
import { CliError, globals } from "../admin-client.ts";
import { asCliError, runApi } from "../run/api.ts";
import { languageOf, LANGUAGE_BY_EXTENSION } from "../run/language.ts";
import { runLive } from "../run/live.ts";
import { runOnce } from "../run/run-once.ts";
import { readTestsDir } from "../run/tests-dir.ts";
import { RUN_EXIT } from "../run/verdict.ts";
import { watchAndRun } from "../run/watch.ts";

interface RunOptions {
  lang?: string;
  stdin?: string;
  tests?: string;
  version?: string;
  watch?: boolean;
  interactive?: boolean;
  key?: string;
}

const EXIT_HELP = `
Exit status:
  0   AC
  1   WA
  2   RE or SIG (a compile error is RE)
  3   TLE
  4   MLE
  5   PLE or FSE
  6   IE, or the job ended in error
  64  usage error (bad flag, unknown extension without --lang, unreadable file)
  65  the API refused the request (400, 404, 413)
  69  the edge is unreachable or failing (network error, 5xx, 429/503 after retries)
  77  no API key, or the key is rejected
  130 interrupted (Ctrl-C, as --watch ends)

With -i the program runs live: what is typed (this process's stdin) reaches it
as it is read, Ctrl-D ends its input, Ctrl-C sends it SIGINT (its own handler
decides; codecell waits for the run's end), Ctrl-\\ kills it (SIGKILL).

The program's output goes to stdout and stderr as it runs; the verdict line
(e.g. "AC · 12 ms CPU · 20 ms wall · 9.1 MiB") goes to stderr. With --tests, one
line per test (name, verdict, time) on stdout. The URL and key: --url/--key, else
CODECELL_URL/CODECELL_API_KEY, else the local stack's .state/dev.json.`;

function readSource(path: string, what: string): string {
  try {
    return readFileSync(path === "-" ? 0 : path, "utf8");
  } catch (error) {
    throw new CliError(`cannot read ${what} ${path === "-" ? "(stdin)" : path}: ${(error as Error).message}`, RUN_EXIT.usage);
  }
}

/** The submission for FILE and the options, read afresh (each --watch run reads the files again). */
function buildRequest(file: string, opts: RunOptions, stdin: string | undefined): SubmitRequest {
  const language = opts.lang ?? languageOf(file);
  if (!language) {
    const known = Object.keys(LANGUAGE_BY_EXTENSION).join(" ");
    throw new CliError(`cannot tell the language of ${file} from its extension (known: ${known}); pass --lang`, RUN_EXIT.usage);
  }
  const request: SubmitRequest = { language, code: readSource(file, "the source file") };
  if (opts.version) request.version = opts.version;
  if (stdin !== undefined) request.stdin = stdin;
  if (opts.tests) request.tests = readTestsDir(opts.tests);
  return request;
}

/** -i: a live session; a usage error with the flags that need the whole stdin first or a record at the end. */
async function runInteractive(file: string, opts: RunOptions, global: { url?: string; insecure?: boolean; json?: boolean }): Promise<number> {
  const clash = [["--tests", opts.tests], ["--watch", opts.watch], ["--stdin", opts.stdin], ["--json", global.json]].find(([, set]) => set);
  if (clash) throw new CliError(`-i cannot be used with ${clash[0]}: the program's stdin is this terminal, its output shown as it comes`, RUN_EXIT.usage);
  const request = buildRequest(file, opts, undefined);
  const { api, baseUrl, close } = runApi({ url: global.url, key: opts.key, insecure: global.insecure });
  try {
    return await runLive(api, request);
  } catch (error) {
    throw asCliError(error, baseUrl);
  } finally {
    await close();
  }
}

export function registerRun(program: Command): void {
  program
    .command("run")
    .description("run a source file: its output live, then the verdict and times; the exit status follows the verdict")
    .argument("<file>", "the source file; the language comes from its extension (.py .c .cpp/.cc/.cxx .java .js/.mjs .ts .go .rs)")
    .option("-l, --lang <language>", "the language, whatever the extension")
    .option("--version <version>", "the toolchain version (see GET /api/runtimes); default: the language's default")
    .option("--stdin <file>", "the program's stdin from a file, or - for this process's stdin")
    .option("--tests <dir>", "test cases: NAME.in (stdin) with optional NAME.out (expected output, compared by lines), sorted by name")
    .option("--watch", "run again whenever the file (or a test file) changes, until Ctrl-C")
    .option("-i, --interactive", "run live: this terminal's input reaches the program as typed, Ctrl-C sends it SIGINT")
    .option("--key <key>", "API key (env CODECELL_API_KEY; default: the local stack's)")
    .configureHelp({ showGlobalOptions: true })
    .addHelpText("after", EXIT_HELP)
    // Commander's own usage errors exit 64, apart from the verdicts' 1 and 2.
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : RUN_EXIT.usage))
    .action(async (file: string, opts: RunOptions, cmd: Command) => {
      const { url, insecure, json } = globals(cmd);
      if (opts.interactive) {
        process.exitCode = await runInteractive(file, opts, { url, insecure, json: Boolean(json) });
        return;
      }
      // Stdin can be read once only: every --watch run gets the same.
      const stdinOnce = opts.stdin === "-" ? readSource("-", "stdin") : undefined;
      const once = async (): Promise<number> => {
        const request = buildRequest(file, opts, opts.stdin && opts.stdin !== "-" ? readSource(opts.stdin, "--stdin") : stdinOnce);
        const { api, baseUrl, close } = runApi({ url, key: opts.key, insecure });
        try {
          return await runOnce(api, request, Boolean(json));
        } catch (error) {
          throw asCliError(error, baseUrl);
        } finally {
          await close();
        }
      };
      if (!opts.watch) {
        process.exitCode = await once();
        return;
      }
      const report = (line: string) => void process.stderr.write(`${line}\n`);
      await watchAndRun(file, opts.tests, async () => {
        try {
          await once();
        } catch (error) {
          if (!(error instanceof CliError)) throw error;
          report(`codecell: ${error.message}`);
        }
      }, report, RUN_EXIT.interrupted);
    });
}
