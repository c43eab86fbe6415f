// The Judge0 CE and Piston v2 compatible routes in the document (docs/migrating.md): their request
// schemas are the ones that validate them (compat/judge0/to-native.ts, compat/piston/to-native.ts),
// their answers in the peers' shapes.
import { z } from "zod";
import { judge0SubmissionSchema } from "../compat/judge0/to-native.ts";
import { pistonExecuteSchema } from "../compat/piston/to-native.ts";
import { requestComponents } from "./requests.ts";
import type { RouteDoc } from "./routes.ts";
import { components, errorBody } from "./schemas.ts";

requestComponents.add(judge0SubmissionSchema, { id: "Judge0SubmissionRequest", description: "A Judge0 CE 1.13 submission; fields it cannot honour are refused by name (422)" });
requestComponents.add(pistonExecuteSchema, { id: "PistonExecuteRequest", description: "A Piston v2 execute request; the first file is the program" });

const judge0Batch = z.object({ submissions: z.array(judge0SubmissionSchema).min(1) });
requestComponents.add(judge0Batch, { id: "Judge0BatchRequest" });

const status = z.object({ id: z.number().int(), description: z.string() });
const text = z.string().nullable();
/** Judge0's submission: the fields `fields=` asked for (default: stdout, time, memory, stderr, token, compile_output, message, status). */
const judge0Submission = z.object({
  token: z.string(), status, status_id: z.number().int(), stdout: text, stderr: text, compile_output: text, message: text,
  exit_code: z.number().int().nullable(), exit_signal: z.number().int().nullable(), time: text, wall_time: text,
  memory: z.number().int().nullable(), created_at: z.string(), finished_at: text, language_id: z.number().int().nullable(),
  number_of_runs: z.number().int(),
}).partial();
components.add(judge0Submission, { id: "Judge0Submission" });
/** Judge0's validation errors: each field with its messages (and our `error` sentence). */
const judge0Errors = z.record(z.string(), z.unknown());
components.add(judge0Errors, { id: "Judge0Errors" });

const stage = z.object({
  stdout: z.string(), stderr: z.string(), output: z.string(), code: z.number().int().nullable(), signal: z.string().nullable(),
  message: z.string().nullable(), status: z.string().nullable(), cpu_time: z.number().nullable(), wall_time: z.number().nullable(),
  memory: z.number().nullable(),
});
const pistonResult = z.object({ language: z.string(), version: z.string(), run: stage.optional(), compile: stage.optional() });
components.add(pistonResult, { id: "PistonResult" });
const pistonRuntime = z.object({ language: z.string(), version: z.string(), aliases: z.array(z.string()), runtime: z.string().optional() });
components.add(pistonRuntime, { id: "PistonRuntime" });
const pistonError = z.object({ message: z.string() }).loose();
components.add(pistonError, { id: "PistonError" });

const KEY = "The key as X-API-Key, X-Auth-Token (Judge0; also as the query parameter ?X-Auth-Token=, which URLs carry into logs: prefer the header), "
  + "Authorization: Bearer, a bare Authorization: <key> (Piston routes only) or HTTP Basic with the key as user name.";

const judge0Language = z.object({ id: z.number().int(), name: z.string(), is_archived: z.boolean() });
const judge0LanguageFull = judge0Language.extend({ source_file: z.string().nullable(), compile_cmd: z.string().nullable(), run_cmd: z.string().nullable() });
/** Judge0 CE 1.13.1's configuration: every field, our limits in its names (seconds, KB). */
const judge0Config = z.record(z.string(), z.union([z.boolean(), z.number(), z.array(z.string())]));
components.add(judge0Config, { id: "Judge0ConfigInfo" });
const judge0Worker = z.object({
  queue: z.string(), size: z.number().int(), available: z.number().int(), idle: z.number().int(), working: z.number().int(),
  paused: z.number().int(), failed: z.number().int(),
});
components.add(judge0Worker, { id: "Judge0Worker" });
const plainText = z.string();

type Ok = { description: string; schema?: z.ZodType; contentType?: string };

/** Judge0's routes besides submissions (compat/judge0/info-routes.ts). */
function judge0Info(path: string, operationId: string, summary: string, ok: Ok, method: "get" | "post" = "get"): RouteDoc {
  return { method, path: `/judge0${path}`, operationId, tag: "Compatibility", summary: `Judge0: ${summary}`, responses: { 200: ok } };
}

const plain = (description: string): Ok => ({ description, contentType: "text/plain", schema: plainText });

const JUDGE0_INFO_ROUTES: RouteDoc[] = [
  judge0Info("", "judge0Home", "home (Judge0's `head :ok`)", { description: "No body" }),
  judge0Info("/languages/all", "judge0AllLanguages", "every language id, by name, none archived", {
    description: "[{id, name, is_archived}]", schema: z.array(judge0Language),
  }),
  judge0Info("/config_info", "judge0ConfigInfo", "configuration: the key's plan's limits in Judge0's field names and units", {
    description: "Every field Judge0 CE 1.13.1 answers", schema: judge0Config,
  }),
  judge0Info("/workers", "judge0Workers", "one entry per runtime (language@version) from the fleet's state", {
    description: "[{queue, size, available, idle, working, paused, failed}]", schema: z.array(judge0Worker),
  }),
  judge0Info("/system_info", "judge0SystemInfo", "system information (empty: the edge is no host of ours to describe)", {
    description: "{}", schema: z.record(z.string(), z.string()),
  }),
  judge0Info("/statistics", "judge0Statistics", "statistics in Judge0's shape, nothing counted", {
    description: "Judge0's shape with zero counts", schema: z.record(z.string(), z.unknown()),
  }),
  judge0Info("/version", "judge0Version", "the Judge0 API version served", plain("1.13.1")),
  judge0Info("/isolate", "judge0Isolate", "the sandbox (a fixed text: isolate is not used)", plain("Plain text")),
  judge0Info("/license", "judge0License", "a fixed text", plain("Plain text")),
  judge0Info("/authenticate", "judge0Authenticate", "check the key; nothing runs (401 when it is wrong)", { description: "The key is valid; no body" }, "post"),
  {
    method: "post", path: "/judge0/authorize", operationId: "judge0Authorize", tag: "Compatibility",
    summary: "Judge0: authorization, which is not enabled here",
    responses: { 403: { description: "As a Judge0 without an authorization token: protected calls are forbidden; no body" } },
  },
  {
    method: "get", path: "/judge0/submissions", operationId: "judge0ListSubmissions", tag: "Compatibility",
    summary: "Judge0: list all submissions (an authorized call; not enabled)",
    responses: { 403: { description: "Forbidden, as in a Judge0 without an authorization token; no body" } },
  },
  {
    method: "delete", path: "/judge0/submissions/{token}", operationId: "judge0DeleteSubmission", tag: "Compatibility", parameters: ["Judge0Token"],
    summary: "Judge0: delete a submission (an authorized call; not enabled)", responses: { 403: { description: "Forbidden, as in a Judge0 without an authorization token; no body" } },
  },
];

export const COMPAT_ROUTES: RouteDoc[] = [
  {
    method: "post", path: "/judge0/submissions", operationId: "judge0Create", tag: "Compatibility",
    summary: "Judge0: create a submission", description: KEY, parameters: ["Base64Encoded", "Wait", "Judge0Fields"], body: judge0SubmissionSchema,
    responses: { 201: { description: "{token}, or with wait=true the submission", schema: judge0Submission }, 422: { description: "Invalid or unsupported field(s), by name", schema: judge0Errors } },
  },
  {
    method: "get", path: "/judge0/submissions/{token}", operationId: "judge0Get", tag: "Compatibility",
    summary: "Judge0: a submission", parameters: ["Judge0Token", "Base64Encoded", "Judge0Fields"],
    responses: { 200: { description: "The submission's requested fields", schema: judge0Submission }, 400: { description: "Unknown field in fields, or output not UTF-8 without base64_encoded", schema: errorBody }, 404: { description: "No such submission", schema: errorBody } },
  },
  {
    method: "post", path: "/judge0/submissions/batch", operationId: "judge0CreateBatch", tag: "Compatibility",
    summary: "Judge0: create several submissions", parameters: ["Base64Encoded"], body: judge0Batch,
    responses: {
      201: { description: "Per item {token} or its field errors (at least one item created)", schema: z.array(z.union([z.object({ token: z.string() }), judge0Errors])) },
      400: { description: "No submissions, or more than the plan's batch cap (Judge0's messages)", schema: errorBody },
      422: { description: "No item was created: each item's field errors", schema: z.array(judge0Errors) },
    },
  },
  {
    method: "get", path: "/judge0/submissions/batch", operationId: "judge0GetBatch", tag: "Compatibility",
    summary: "Judge0: several submissions", parameters: ["Judge0Tokens", "Base64Encoded", "Judge0Fields"],
    responses: { 200: { description: "{submissions: [...]} in token order, null for unknown tokens", schema: z.object({ submissions: z.array(judge0Submission.nullable()) }) }, 400: { description: "No tokens, or too many", schema: errorBody } },
  },
  {
    method: "get", path: "/judge0/languages", operationId: "judge0Languages", tag: "Compatibility", summary: "Judge0: every language id a submission may name",
    responses: { 200: { description: "[{id, name}]: our runtimes' ids, then each other Judge0 CE id of one of our languages with the runtime that stands in for it",  schema: z.array(z.object({ id: z.number().int(), name: z.string() })) } },
  },
  {
    method: "get", path: "/judge0/languages/{id}", operationId: "judge0Language", tag: "Compatibility", summary: "Judge0: one language id a submission may name",
    parameters: ["Judge0LanguageId"],
    responses: {
      200: { description: "{id, name, is_archived, source_file, compile_cmd, run_cmd}; the commands are the node's (docs/languages.md): null here", schema: judge0LanguageFull },
      404: { description: "Not an id a submission may name", schema: errorBody },
    },
  },
  {
    method: "get", path: "/judge0/statuses", operationId: "judge0Statuses", tag: "Compatibility", summary: "Judge0: status ids",
    responses: { 200: { description: "[{id, description}]", schema: z.array(status) } },
  },
  {
    method: "get", path: "/judge0/about", operationId: "judge0About", tag: "Compatibility", summary: "Judge0: about",
    responses: { 200: { description: "The Judge0 API version served; every field a string", schema: z.object({ version: z.string(), homepage: z.string(), source_code: z.string(), maintainer: z.string() }) } },
  },
  ...JUDGE0_INFO_ROUTES,
  {
    method: "post", path: "/piston/api/v2/execute", operationId: "pistonExecute", tag: "Compatibility",
    summary: "Piston: run a program and wait for it", description: KEY, body: pistonExecuteSchema,
    responses: { 200: { description: "Piston's result: compile (compiled languages) and run stages", schema: pistonResult }, 400: { description: "Invalid request or unknown runtime", schema: pistonError }, 504: { description: "The run did not finish in time; its native record stays available", schema: pistonError } },
  },
  {
    method: "get", path: "/piston/api/v2/connect", operationId: "pistonConnect", tag: "Compatibility",
    summary: "Piston: a live session (WebSocket)", description: `${KEY} Piston's interactive protocol: init, runtime, stage, data, signal, exit, error; close codes 4000-4005 and 4999 (docs/live-sessions.md).`,
    responses: { 101: { description: "Switching Protocols: the session's WebSocket" }, 401: { description: "Missing or invalid API key: nothing runs", schema: pistonError }, 426: { description: "Not a WebSocket upgrade", schema: pistonError } },
  },
  {
    method: "get", path: "/piston/api/v2/runtimes", operationId: "pistonRuntimes", tag: "Compatibility", summary: "Piston: runtimes",
    responses: { 200: { description: "[{language, version, aliases, runtime?}]", schema: z.array(pistonRuntime) } },
  },
];
