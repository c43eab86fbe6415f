// One worker of the judge's check pool (check-pool.ts): runs the checker (which decodes bytes as
// checker.ts says), one job at a time, off the node's event loop.
import { parentPort } from "node:worker_threads";
import { check } from "./checker.ts";
import type { CheckJobMessage, CheckReplyMessage } from "./check-pool.ts";

function answer(job: CheckJobMessage): CheckReplyMessage {
  try {
    return { id: job.id, result: check(job.actual, job.expected, job.mode, job.epsilon) };
  } catch (error) {
    return { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on("message", (job: CheckJobMessage) => parentPort!.postMessage(answer(job)));
parentPort?.postMessage({ ready: true } satisfies CheckReplyMessage);
