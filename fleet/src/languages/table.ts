// The language table: adding a language is adding one entry. Every command runs inside the
// sandbox; `detect` runs on the host at start-up to decide whether the language is offered.
import type { Bind } from "../sandbox/types.ts";

export interface LanguageSpec {
  /** Canonical name (spec §2.5), carried by every record. */
  name: string;
  aliases: string[];
  /** Name of the source file in /box. */
  sourceFile: string;
  /** Host command printing the toolchain version, and how to read it. */
  detect: { argv: string[]; version: (output: string) => string | undefined };
  /** Extra read-only binds (toolchains outside /usr) and environment for compile and run. */
  binds?: Bind[];
  env?: Record<string, string>;
  /** Absent for interpreted languages. `artifact` is copied out of /box and cached. */
  compile?: { argv: string[]; artifact: string; maxArtifactBytes: number };
  run: { argv: string[] };
}

const firstLineVersion = (pattern: RegExp) => (output: string) => pattern.exec(output)?.[1];

export const LANGUAGES: LanguageSpec[] = [
  {
    name: "python",
    aliases: ["py"],
    sourceFile: "main.py",
    detect: { argv: ["/usr/bin/python3", "--version"], version: firstLineVersion(/Python (\S+)/) },
    env: { PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1", PYTHONHASHSEED: "0" },
    run: { argv: ["/usr/bin/python3", "-B", "main.py"] },
  },
  {
    name: "c",
    aliases: [],
    sourceFile: "main.c",
    detect: { argv: ["/usr/bin/gcc", "-dumpfullversion"], version: firstLineVersion(/^(\S+)/) },
    compile: {
      argv: ["/usr/bin/gcc", "-std=c17", "-O2", "-pipe", "-o", "main", "main.c", "-lm"],
      artifact: "main",
      maxArtifactBytes: 64 * 1024 * 1024,
    },
    run: { argv: ["./main"] },
  },
];

export function findLanguage(nameOrAlias: string, table: LanguageSpec[] = LANGUAGES): LanguageSpec | undefined {
  const key = nameOrAlias.trim().toLowerCase();
  return table.find((language) => language.name === key || language.aliases.includes(key));
}
