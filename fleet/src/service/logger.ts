// Structured JSON logs. Call sites never pass source, stdin, outputs or the token; the redaction
// list is a second line of defence should one slip into a logged object.
import { pino, type Logger } from "pino";

export type { Logger };

const REDACT = [
  "token",
  "authorization",
  "code",
  "stdin",
  "stdout",
  "stderr",
  "*.token",
  "*.authorization",
  "*.code",
  "*.stdin",
  "*.stdout",
  "*.stderr",
];

export function createLogger(options: { level: string; nodeId: string }): Logger {
  // Asynchronous writes keep a log line off the hot path; pino flushes the buffer on exit.
  const destination = pino.destination({ dest: 1, sync: false });
  return pino({
    level: options.level,
    base: { service: "codecell-fleet", node_id: options.nodeId },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACT, censor: "[redacted]" },
  }, destination);
}
