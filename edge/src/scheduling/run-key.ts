// What the scheduler matches a submission against a node by: the language, or the language and
// the version when the request named one (`go@1.23.5`), so that on a fleet whose nodes offer
// different versions a run only goes to a node that has its version. Pure, unit tested.

export function runKey(language: string, format?: { version?: string; named_version?: boolean }): string {
  return format?.named_version && format.version ? `${language}@${format.version}` : language;
}

/** A node's keys: every language it offers, and every language@version. */
export function nodeRunKeys(languages: readonly { name: string; version: string }[]): string[] {
  return [...new Set(languages.flatMap((l) => (l.version ? [l.name, `${l.name}@${l.version}`] : [l.name])))];
}
