// One run of `codecell run`: submit, follow the event stream (the program's output to our stdout
// and stderr as it arrives, a line per finished test), then the verdict and times on stderr.
// With --json: no live output, the final record as JSON on stdout.
import type { Codecell, ResultRecord, SubmitRequest } from "../../client/src/index.ts";
import { ConnectionError } from "../../client/src/index.ts";
import { exitStatus, summary } from "./verdict.ts";

export interface Sinks {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const processSinks: Sinks = { stdout: process.stdout, stderr: process.stderr };

/** Runs `request` and prints it; resolves to the exit status mapped from the verdict. */
export async function runOnce(api: Codecell, request: SubmitRequest, json: boolean, sinks: Sinks = processSinks): Promise<number> {
  const record = json ? await api.run(request) : await follow(api, request, sinks);
  if (json) sinks.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
  else sinks.stderr.write(`${summary(record)}${testTally(record)}\n`);
  return exitStatus(record);
}

async function follow(api: Codecell, request: SubmitRequest, sinks: Sinks): Promise<ResultRecord> {
  const accepted = await api.submit(request);
  const names = (request.tests ?? []).map((t, i) => t.name ?? `test-${i + 1}`);
  const width = Math.max(0, ...names.map((n) => n.length));
  const streamed = { stdout: "", stderr: "" };
  let record: ResultRecord | undefined;
  try {
    for await (const event of api.events(accepted.id)) {
      if (event.event === "stdout" || event.event === "stderr") {
        if (event.data.test !== undefined) continue;
        streamed[event.event] += event.data.data;
        sinks[event.event].write(event.data.data);
      } else if (event.event === "test") {
        sinks.stdout.write(`${event.data.name.padEnd(width)}  ${event.data.verdict.padEnd(3)}  ${event.data.time_ms} ms\n`);
      } else if (event.event === "completed") {
        record = event.data as ResultRecord;
      }
    }
  } catch (error) {
    // A stream that cannot be kept up: the record is still there to poll.
    if (!(error instanceof ConnectionError)) throw error;
  }
  record ??= await api.wait(accepted.id);
  // What the stream did not carry (a dropped stream, compile diagnostics of a run with tests).
  for (const name of ["stdout", "stderr"] as const) {
    const whole = record[name] ?? "";
    const rest = whole.startsWith(streamed[name]) ? whole.slice(streamed[name].length) : "";
    const show = request.tests ? name === "stderr" && record.evidence?.verdict_cause === "compile_error" : true;
    if (rest && show) sinks[name].write(rest);
  }
  return record;
}

function testTally(record: ResultRecord): string {
  if (!record.tests || record.tests.length === 0) return "";
  const passed = record.tests.filter((t) => t.verdict === "AC").length;
  return ` · ${passed}/${record.tests.length} tests AC`;
}
