// HOOK (issue 14): the per-language allow-list of compiler options is shared with the fleet through
// proto/compiler-options.ts (written on the node side). Until it is merged here the edge checks
// only the options' shape (submit-schema.ts) and the node refuses any option it does not allow.
// At the merge, the body becomes:
//   return disallowedCompilerOptions(language, [option]).length === 0 ? null
//     : `'${option}' is not an allowed compiler option for ${language} (see docs/languages.md)`;
// (import { disallowedCompilerOptions } from "../../../proto/compiler-options.ts").

/** Why `option` is refused for `language`, or null when it is allowed. */
export function compilerOptionProblem(_language: string, _option: string): string | null {
  return null;
}
