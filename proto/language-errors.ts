// The one shape of "no such language" and "no such version", on both sides: the edge answers it
// with a 400 (`error` the message, `available` the list), a node with INVALID_ARGUMENT (the
// message). A checker's and an interactor's are the same, their field named first.
import { resolveLanguage } from "./languages.ts";
import { resolveVersion, type Runtime } from "./runtimes.ts";

/** Whose language a request names: the program's, or its checker's or interactor's. */
export type LanguageRole = "program" | "checker" | "interactor";

export interface LanguageRefusal {
  kind: "unknown_language" | "unknown_version";
  /** The request field refused: `language`, `version`, `checker.language`, … */
  field: string;
  /** The canonical languages offered (unknown language), or that language's versions (unknown version). */
  available: string[];
  /** The message both sides send. */
  message: string;
}

/** The edge's 400 body of a refusal: the message as `error`, and what is available. */
export function languageRefusalBody(refusal: LanguageRefusal): { error: string; available: string[] } {
  return { error: refusal.message, available: refusal.available };
}

/** How much of a requested name a message repeats. */
const SHOWN = 32;

const fieldOf = (role: LanguageRole, field: "language" | "version") => (role === "program" ? field : `${role}.${field}`);
const prefix = (role: LanguageRole, field: "language" | "version") => (role === "program" ? "" : `${fieldOf(role, field)}: `);
const listed = (available: readonly string[]) => available.join(", ") || "none right now";

export function unknownLanguage(requested: string, available: readonly string[], role: LanguageRole = "program"): LanguageRefusal {
  const languages = [...new Set(available)];
  return {
    kind: "unknown_language",
    field: fieldOf(role, "language"),
    available: languages,
    message: `${prefix(role, "language")}unsupported language "${requested.slice(0, SHOWN)}"; available: ${listed(languages)}`,
  };
}

export function unknownVersion(language: string, requested: string, available: readonly string[], role: LanguageRole = "program"): LanguageRefusal {
  return {
    kind: "unknown_version",
    field: fieldOf(role, "version"),
    available: [...available],
    message: `${prefix(role, "version")}unknown version "${requested.slice(0, SHOWN)}" of ${language}; available: ${listed(available)}`,
  };
}

/**
 * The runtime a request's language and version name among `offered` (the one rule of
 * proto/languages.ts and proto/runtimes.ts), else the refusal.
 */
export function resolveRuntime(
  offered: readonly Runtime[], language: string, version = "", role: LanguageRole = "program",
): { runtime: Runtime } | { refusal: LanguageRefusal } {
  const names = offered.map((runtime) => runtime.language);
  const canonical = resolveLanguage(language, names);
  if (canonical === null) return { refusal: unknownLanguage(language, names, role) };
  const runtime = resolveVersion(offered, canonical, version);
  if (runtime === null) return { refusal: unknownVersion(canonical, version, offered.filter((r) => r.language === canonical).map((r) => r.version), role) };
  return { runtime };
}
