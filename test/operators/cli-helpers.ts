// Shared by the operator tests: run the CLI (cli/codecell) against a test edge.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../edge/harness.ts";
import type { Edge } from "../edge/harness.ts";
import { assertCommandAnswer } from "./cli-operations.ts";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs the CLI; what a successful --json admin command prints is checked against docs/openapi.json (cli-operations.ts). */
export async function cli(edge: Edge | null, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const result = await run(edge, args, env);
  if (result.code === 0 && args.includes("--json") && result.json !== undefined) assertCommandAnswer(args, result.json);
  return result;
}

function run(edge: Edge | null, args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(join(ROOT, "cli", "codecell"), args, {
      cwd: ROOT,
      env: {
        ...process.env,
        ...(edge ? { CODECELL_URL: edge.base, CODECELL_OPERATOR_TOKEN: edge.operatorToken } : {}),
        ...env,
      },
      timeout: 60_000,
    }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      let json: unknown = undefined;
      try {
        json = JSON.parse(stdout);
      } catch {}
      resolve({ code, stdout, stderr, json });
    });
  });
}

/** `--insecure --json <args>`: every test edge runs wrangler's self-signed certificate. */
export function cliJson(edge: Edge, ...args: string[]): Promise<CliResult> {
  return cli(edge, ["--insecure", "--json", ...args]);
}
