// The parts of a submission every field shares: a 400 naming the field, decoding its text, and
// the checks of a list of files (the program's `files`, the checker's `checker.files`).
import { fromBase64, toBase64 } from "../../../proto/base64.ts";
import { takenNameProblem } from "../../../proto/source-names.ts";
import { MAX_FILES, MAX_FILES_TOTAL_BYTES, filePathProblem, fileTreeProblem } from "../../../proto/submission-rules.ts";
import { HttpError } from "../lib/http.ts";

/** A file as the request gives it: content in `encoding` (utf8 by default). */
export interface RequestFile {
  path: string;
  content: string;
  encoding?: "utf8" | "base64" | undefined;
}

export const bad = (field: string, message: string) => new HttpError(400, { error: `invalid ${field}`, message });

export function decode(field: string, text: string, enc: "utf8" | "base64"): Uint8Array {
  if (enc === "utf8") return new TextEncoder().encode(text);
  const bytes = fromBase64(text);
  if (!bytes) throw bad(field, `${field} is not valid base64 (RFC 4648 standard alphabet, padded, no whitespace)`);
  return bytes;
}

const PATH_RULE = "a file path is a relative path of at most 8 segments of [A-Za-z0-9._-], each at most 255 bytes, without '.' or '..' segments";

/** `list` as the node takes it, or a 400 naming `field[i]`; `reserved`: a further rule on each path. */
export function checkedFiles(
  list: readonly RequestFile[], field: string, language: string | null, main: string | null, reserved?: (path: string) => string | null,
): { path: string; content_b64: string }[] {
  if (list.length > MAX_FILES) throw bad(field, `${field} has ${list.length} entries; at most ${MAX_FILES} are allowed`);
  const seen = new Set<string>();
  let total = 0;
  const out = list.map((f, i) => {
    const item = `${field}[${i}]`;
    const problem = filePathProblem(f.path);
    if (problem) throw bad(`${item}.path`, `${item}.path: ${problem.replace(/^files: /, "")} (${PATH_RULE})`);
    if (seen.has(f.path)) throw bad(`${item}.path`, `${item}.path '${f.path}' appears twice`);
    const taken = (language ? takenNameProblem(f.path, language, main) : null) ?? reserved?.(f.path) ?? null;
    if (taken) throw bad(`${item}.path`, `${item}.path: ${taken}`);
    seen.add(f.path);
    const content = decode(`${item}.content`, f.content, f.encoding ?? "utf8");
    total += content.length;
    if (total > MAX_FILES_TOTAL_BYTES) throw bad(field, `the ${field}' contents exceed ${MAX_FILES_TOTAL_BYTES} bytes in all`);
    return { path: f.path, content_b64: toBase64(content) };
  });
  const tree = fileTreeProblem(out.map((f) => f.path));
  if (tree) throw bad(field, field === "files" ? tree : tree.replace(/^files: /, `${field}: `));
  return out;
}
