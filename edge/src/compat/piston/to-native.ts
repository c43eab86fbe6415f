// A Piston v2 execute request → the body of our POST /api/submit. Piston's shape is checked here
// (400 `{message}`, as Piston answers); the native body then goes through our one validation path.
// Pure; unit tested.
import semver from "semver";
import { z } from "zod";
import { fromBase64, toBase64 } from "../../../../proto/base64.ts";
import { MANIFESTS } from "../../../../languages/index.gen.ts";
import type { Runtime } from "../../../../proto/runtimes.ts";
import { HttpError } from "../../lib/http.ts";
import { valueAt } from "../input-path.ts";

/** Piston's language names and aliases for our languages (each language folder's manifest). */
const PISTON_NAMES: Record<string, string> = Object.fromEntries(
  MANIFESTS.flatMap((m) => (m.piston ? [m.piston.name, ...m.piston.aliases].map((name) => [name, m.name]) : [])),
);

/** Our canonical name → the name Piston lists. */
export const PISTON_LANGUAGE: Record<string, string> = Object.fromEntries(MANIFESTS.flatMap((m) => (m.piston ? [[m.name, m.piston.name]] : [])));

/** Piston's `runtime` field of a language, if it has one (`node`). */
export function pistonRuntimeName(language: string): string | undefined {
  return MANIFESTS.find((m) => m.name === language)?.piston?.runtime;
}

export function pistonAliases(language: string): string[] {
  return [...(MANIFESTS.find((m) => m.name === language)?.piston?.aliases ?? [])];
}

const pistonError = (message: string) => new HttpError(400, { message, error: message });

const ms = z.number().finite().nullish();
const fileSchema = z.object({
  name: z.string().max(255).nullish(),
  content: z.string(),
  encoding: z.enum(["utf8", "base64", "hex"]).nullish(),
}).strict();

export const pistonExecuteSchema = z.object({
  language: z.string().max(64),
  version: z.string().max(64),
  files: z.array(fileSchema).min(1).max(32),
  stdin: z.string().nullish(),
  args: z.array(z.string()).max(64).nullish(),
  compile_timeout: ms,
  run_timeout: ms,
  compile_cpu_time: ms,
  run_cpu_time: ms,
  compile_memory_limit: ms,
  run_memory_limit: ms,
}).strict();

export type PistonExecute = z.infer<typeof pistonExecuteSchema>;

export function parsePistonExecute(input: unknown): PistonExecute {
  const parsed = pistonExecuteSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === "unrecognized_keys") throw pistonError(`unsupported field(s): ${issue.keys.join(", ")}`);
  const field = issue.path.join(".") || "request";
  if (issue.code === "invalid_type" && valueAt(input, issue.path) === undefined) throw pistonError(`${field} is required (${issue.expected})`);
  throw pistonError(`${field}: ${issue.message}`);
}

/** The runtime of a Piston language and version (exact, semver range or "*"); null when none matches. */
export function pistonRuntime(language: string, version: string, runtimes: readonly Runtime[]): Runtime | null {
  const canonical = PISTON_NAMES[language];
  if (!canonical) return null;
  const candidates = runtimes.filter((r) => r.language === canonical);
  const exact = candidates.find((r) => r.version === version || r.aliases.includes(version));
  if (exact) return exact;
  const range = semver.validRange(version);
  if (range === null) return null;
  const best = semver.maxSatisfying(candidates.map((r) => semver.coerce(r.version)?.version).filter((v): v is string => !!v), range);
  return candidates.find((r) => semver.coerce(r.version)?.version === best) ?? null;
}

/** A file's bytes as base64, from Piston's encodings. */
function base64Content(content: string, encoding: "utf8" | "base64" | "hex", index: number): string {
  if (encoding === "utf8") return toBase64(new TextEncoder().encode(content));
  if (encoding === "base64") {
    const bytes = fromBase64(content);
    if (!bytes) throw pistonError(`files[${index}].content is not valid base64`);
    return toBase64(bytes);
  }
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(content)) throw pistonError(`files[${index}].content is not valid hex`);
  return toBase64(Uint8Array.from(content.match(/../g) ?? [], (h) => parseInt(h, 16)));
}

const positive = (v: number | null | undefined) => (v != null && v > 0 ? v : undefined);

/** The native request for a Piston execute; `runtime` from pistonRuntime. */
export function pistonToNative(p: PistonExecute, runtime: Runtime): Record<string, unknown> {
  const [entry, ...others] = p.files;
  const body: Record<string, unknown> = {
    language: runtime.language,
    version: runtime.version,
    encoding: "base64",
    code: base64Content(entry!.content, entry!.encoding ?? "utf8", 0),
    stdin: toBase64(new TextEncoder().encode(p.stdin ?? "")),
  };
  if (others.length > 0) {
    body.files = others.map((f, i) => ({
      path: f.name || `file${i + 1}`, content: base64Content(f.content, f.encoding ?? "utf8", i + 1), encoding: "base64",
    }));
  }
  if (p.args && p.args.length > 0) body.args = p.args;
  const limits: Record<string, number> = {};
  if (positive(p.run_timeout)) limits.wall_time_ms = Math.round(p.run_timeout!);
  if (positive(p.run_cpu_time)) limits.cpu_time_ms = Math.round(p.run_cpu_time!);
  if (positive(p.run_memory_limit)) limits.memory_mb = Math.max(1, Math.ceil(p.run_memory_limit! / (1024 * 1024)));
  if (Object.keys(limits).length > 0) body.limits = limits;
  const compile: Record<string, number> = {};
  if (positive(p.compile_timeout)) compile.wall_time_ms = Math.round(p.compile_timeout!);
  if (positive(p.compile_cpu_time)) compile.cpu_time_ms = Math.round(p.compile_cpu_time!);
  if (positive(p.compile_memory_limit)) compile.memory_mb = Math.max(1, Math.ceil(p.compile_memory_limit! / (1024 * 1024)));
  if (Object.keys(compile).length > 0) body.compile_limits = compile;
  return body;
}
