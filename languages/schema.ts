// What a language folder holds (docs/languages.md, "A language is one folder"). Three modules:
//   manifest.ts — this schema's data: names, Judge0 ids, Piston names, file names, packages.
//                 Runtime-neutral: the edge, the node, the CLI and the generator all read it.
//   fleet.ts    — the node's part: detection, compile and run commands (node-only).
//   programs.ts — the programs every language's suite runs (tests only).
// `npm run languages` lists the folders in the generated index modules; nothing else names a language.
import { z } from "zod";

const name = z.string().regex(/^[a-z][a-z0-9+#-]*$/);

/** A Judge0 CE language id and the toolchain version it names there (major.minor). */
const judge0Id = z.object({ id: z.number().int().positive(), version: z.string() }).strict();

/** What a submission's main source becomes in /box. */
const sourcePlan = z.object({ fileName: z.string(), entry: z.string().optional(), problem: z.string().optional() });
export type SourcePlan = z.infer<typeof sourcePlan>;

export const languageManifest = z.object({
  /** Canonical name (docs/api.md), carried by every record. */
  name,
  /** Where it is listed among the languages: lower first, then by name. */
  order: z.number().int().default(1000),
  /** Other names a request may give (exact, lower case). */
  aliases: z.array(name).default([]),
  /** One line for people (docs, OpenAPI). */
  title: z.string(),
  source: z.object({
    /** The main source's file name when it does not depend on the code. */
    fileName: z.string(),
    /** The file name read from the code (Java's from its classes); fileName is then what a listing shows. */
    fromCode: z.custom<(code: string) => SourcePlan>((v) => typeof v === "function").optional(),
    /** File extensions that name this language (`codecell run FILE`), lower case with the dot. */
    extensions: z.array(z.string().regex(/^\.[a-z0-9+]+$/)).default([]),
  }).strict(),
  /** A compiled language: the one file the compile leaves in /box and the scratch names it uses there. */
  compile: z.object({ artifact: z.string(), scratch: z.array(z.string()).default([]) }).strict().optional(),
  judge0: z.object({
    /** The id a Judge0 client most likely sends (Judge0 CE's long-standing one). */
    classicId: z.number().int().positive(),
    /** Judge0's display name; `%s` is the version. */
    display: z.string(),
    /** Judge0 CE's ids of this language, run by the nearest version we have. */
    ids: z.array(judge0Id).default([]),
  }).strict().optional(),
  piston: z.object({
    /** The name Piston lists it under. */
    name: z.string(),
    /** Other names Piston takes for it. */
    aliases: z.array(z.string()).default([]),
    /** Piston's `runtime` field (`node` for JavaScript and TypeScript). */
    runtime: z.string().optional(),
  }).strict().optional(),
  /** What scripts/provision.sh installs for it. */
  packages: z.object({ debian: z.array(z.string()).default([]), npm: z.array(z.string()).default([]) }).strict().default({ debian: [], npm: [] }),
  /** Curated libraries, listed when their probe file exists on the node. */
  libraries: z.array(z.object({ name: z.string(), debianPackage: z.string(), probe: z.string() }).strict()).default([]),
}).strict();

/** A manifest as written in a folder. */
export type LanguageManifestInput = z.input<typeof languageManifest>;
/** A manifest with its defaults filled in. */
export type LanguageManifest = z.output<typeof languageManifest>;

/** A folder's manifest, typed as it is written; the generator and the index check it with the schema. */
export const defineLanguage = <const T extends LanguageManifestInput>(manifest: T): T => manifest;

/** The programs the language suites run in every language (programs.ts). */
export interface LanguagePrograms {
  hello: string;
  /** Reads whitespace-separated integers from stdin, prints their sum. */
  sum: string;
  /** Exits non-zero by the language's own error path. */
  runtimeError: string;
  /** Compiled languages: a program the compiler refuses. */
  compileError?: string;
  spin: string;
  /** Allocates and touches memory without bound. */
  hog: string;
  /** What the hog gets: the cgroup OOM killer (MLE), or the runtime's own heap limit (RE). */
  hogVerdict: "MLE" | "RE";
  hogStderr?: RegExp;
  /** Prints the Threads: line of /proc/self/status after starting up (runtimes with threads). */
  threads?: string;
}
