// Judge0 language ids for our runtimes. A Judge0 client names a language and a version in one id
// (71 = "Python (3.8.1)"). We keep Judge0's id where it names the same language and version
// (major.minor, else major) as one of our runtimes; our default version of a language takes the language's
// classic CE id when no runtime matched it exactly; any other runtime gets an id of our own
// from OWN_IDS_FROM up. Every other Judge0 CE id of one of our languages is accepted too, run by
// the nearest runtime (runtimeForId), and answered as sent. Pure; unit tested.
import { MANIFESTS } from "../../../../languages/index.gen.ts";
import type { Runtime } from "../../../../proto/runtimes.ts";

interface Judge0Id {
  id: number;
  language: string;
  /** major.minor of the toolchain the id names in Judge0 CE. */
  version: string;
}

/** Judge0 CE's ids for the languages we run (each language folder's manifest), versions reduced to major.minor. */
const JUDGE0_IDS: readonly Judge0Id[] = MANIFESTS.flatMap((m) => (m.judge0?.ids ?? []).map(({ id, version }) => ({ id, language: m.name, version })));

/** The id a Judge0 client most likely sends for a language (Judge0 CE's long-standing one). */
const CLASSIC_ID: Record<string, number> = Object.fromEntries(MANIFESTS.flatMap((m) => (m.judge0 ? [[m.name, m.judge0.classicId]] : [])));

/** Judge0's display name of a language at a version (the manifest's, `%s` the version). */
const DISPLAY: Record<string, (v: string) => string> = Object.fromEntries(
  MANIFESTS.flatMap((m) => (m.judge0 ? [[m.name, (v: string) => m.judge0!.display.replaceAll("%s", v)]] : [])),
);

export const OWN_IDS_FROM = 1000;

export interface Judge0Language {
  id: number;
  name: string;
  runtime: Runtime;
  /** A Judge0 CE id that another version of the language answers (listed after the runtimes' own ids). */
  standIn?: true;
}

/** major.minor of a version text ("1.23.4" → "1.23", "17" → "17.0", "22.08.0" → "22.8"). */
export function majorMinor(version: string): string | null {
  const m = /^(\d+)(?:\.(\d+))?/.exec(version);
  return m ? `${Number(m[1])}.${Number(m[2] ?? 0)}` : null;
}

const major = (version: string) => /^\d+/.exec(version)?.[0] ?? null;

/** Every runtime with its Judge0 id, in the runtimes' order. Ids are stable for a given runtime list. */
export function judge0Languages(runtimes: readonly Runtime[]): Judge0Language[] {
  const taken = new Set<number>();
  const ids = new Map<Runtime, number>();
  const claim = (r: Runtime, id: number | undefined) => {
    if (id === undefined || ids.has(r) || taken.has(id)) return;
    ids.set(r, id);
    taken.add(id);
  };
  for (const r of runtimes) claim(r, JUDGE0_IDS.find((j) => j.language === r.language && j.version === majorMinor(r.version))?.id);
  for (const r of runtimes) claim(r, JUDGE0_IDS.find((j) => j.language === r.language && major(j.version) === major(r.version))?.id);
  for (const r of runtimes) if (r.default) claim(r, CLASSIC_ID[r.language]);
  let own = OWN_IDS_FROM;
  for (const r of runtimes) {
    if (!ids.has(r)) {
      while (taken.has(own)) own++;
      ids.set(r, own);
      taken.add(own);
    }
  }
  return runtimes.map((r) => ({ id: ids.get(r)!, name: display(r.language, r.version), runtime: r }));
}

const display = (language: string, version: string) => (DISPLAY[language] ?? ((v: string) => `${language} (${v})`))(version);

/**
 * Every id a submission may name: the runtimes' own (judge0Languages), then each other Judge0 CE
 * id of one of our languages, by id, named after the runtime that runs it and the one it stands in for.
 */
export function acceptedLanguages(runtimes: readonly Runtime[]): Judge0Language[] {
  const listed = judge0Languages(runtimes);
  const standIns = JUDGE0_IDS.filter((j) => !listed.some((l) => l.id === j.id))
    .map((j) => ({ j, runtime: runtimeForId(j.id, runtimes) }))
    .filter((x): x is { j: Judge0Id; runtime: Runtime } => x.runtime !== null)
    .sort((a, b) => a.j.id - b.j.id)
    .map(({ j, runtime }) => ({
      id: j.id, name: `${display(runtime.language, runtime.version)}, standing in for ${display(j.language, j.version)}`, runtime, standIn: true as const,
    }));
  return [...listed, ...standIns];
}

/**
 * The runtime a Judge0 language_id asks for: the id as listed, else a Judge0 CE id of one of our
 * languages (its version when we have it, else our default of that language). null: unknown id.
 */
export function runtimeForId(id: number, runtimes: readonly Runtime[]): Runtime | null {
  const listed = judge0Languages(runtimes).find((l) => l.id === id);
  if (listed) return listed.runtime;
  const known = JUDGE0_IDS.find((j) => j.id === id);
  if (!known) return null;
  const same = runtimes.filter((r) => r.language === known.language);
  return same.find((r) => majorMinor(r.version) === known.version) ?? same.find((r) => major(r.version) === major(known.version)) ??
    same.find((r) => r.default) ?? same[0] ?? null;
}

/** The id the runtime that `id` runs on is listed under (71 → 92 when Python 3.11 answers 71). */
export function listedId(id: number, runtimes: readonly Runtime[]): number | undefined {
  const runtime = runtimeForId(id, runtimes);
  return judge0Languages(runtimes).find((l) => l.runtime === runtime)?.id;
}
