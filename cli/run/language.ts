// The language of a source file, from its extension (codecell run FILE without --lang): each
// language folder's manifest lists its extensions (languages/<name>/manifest.ts).
import { extname } from "node:path";
import { MANIFESTS } from "../../languages/index.gen.ts";

export const LANGUAGE_BY_EXTENSION: Readonly<Record<string, string>> = Object.fromEntries(
  MANIFESTS.flatMap((manifest) => manifest.source.extensions.map((extension) => [extension, manifest.name])),
);

/** The language for `file`, or undefined when its extension is not one we know. */
export function languageOf(file: string): string | undefined {
  return LANGUAGE_BY_EXTENSION[extname(file).toLowerCase()];
}
