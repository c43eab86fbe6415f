// One worker of the judge's check pool (check-pool.ts): decodes both sides as UTF-8 (invalid bytes
// replaced) and runs the checker, one job at a time, off the node's event loop.
import { parentPort } from "node:worker_threads";
import { check } from "./checker.ts";
import type { CheckJobMessage, CheckReplyMessage } from "./check-pool.ts";

const decoder = new TextDecoder("utf-8", { fatal: false });
const text = (value: Uint8Array | string): string => (typeof value === "string" ? value : decoder.decode(value));

function answer(job: CheckJobMessage): CheckReplyMessage {
  try {
    return { id: job.id, result: check(text(job.actual), text(job.expected), job.mode, job.epsilon) };
  } catch (error) {
    return { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on("message", (job: CheckJobMessage) => parentPort!.postMessage(answer(job)));
parentPort?.postMessage({ ready: true } satisfies CheckReplyMessage);
