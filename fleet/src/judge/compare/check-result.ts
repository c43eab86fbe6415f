// What an output check answers: equal, or the first place the output and the expected output differ.

export interface Mismatch {
  /**
   * 1-based line of the first difference (exact, lines, identical), of the first differing token,
   * or (unordered) of the extra output line or the missing expected line.
   */
  line: number;
  /** 1-based column (exact, lines) in UTF-16 code units; identical: the byte within the line. */
  column?: number;
  /** 1-based index of the first differing token (tokens, tokens_ci and the float rules). */
  token?: number;
  expected: string;
  actual: string;
  /** A sentence a user understands. */
  message: string;
}

export type CheckResult = { equal: true } | { equal: false; mismatch: Mismatch };
