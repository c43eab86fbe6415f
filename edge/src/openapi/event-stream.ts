// The events of GET /api/result/{id}/events (text/event-stream), one schema per event name. Each
// SSE message is `id: <n>`, `event: <name>`, `data: <JSON>`; described here as one object per message.
import { z } from "zod";
import { components, resultRecord, testRecord } from "./schemas.ts";

const output = z.object({
  data: z.string().meta({ description: "A chunk of output, in the record's encoding (utf8 text, or base64)" }),
  test: z.number().int().optional().meta({ description: "0-based test index, when the request had tests" }),
});

const EVENT_DATA = {
  queued: z.object({ position: z.number().int() }),
  started: z.object({ started_at: z.string().meta({ format: "date-time" }) }),
  stdout: output,
  stderr: output,
  test: testRecord.extend({ index: z.number().int() }),
  completed: resultRecord,
} as const;

export type EventName = keyof typeof EVENT_DATA;
export const EVENT_NAMES = Object.keys(EVENT_DATA) as EventName[];

const message = (name: EventName) =>
  z.object({
    id: z.string().meta({ description: "Sequence number from 1; send it back as Last-Event-ID to resume" }),
    event: z.literal(name),
    data: EVENT_DATA[name],
  });

export const serverSentEvent = z.union(EVENT_NAMES.map(message) as [ReturnType<typeof message>, ...ReturnType<typeof message>[]]);
components.add(serverSentEvent, {
  id: "ServerSentEvent",
  description: "One message of the event stream; `data` is the JSON after `data:`. completed (also for job_status error) is the last.",
});
