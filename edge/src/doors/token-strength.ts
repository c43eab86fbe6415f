// The floor an OPERATOR_TOKEN must clear before /admin and the dashboard open at all: a short or
// repetitive token could be guessed despite the throttle. Also used by scripts/start.ts.
export const MIN_TOKEN_LENGTH = 32;
export const MIN_DISTINCT_CHARS = 10;

/** Why the token is too weak to guard the operator doors, or null. */
export function operatorTokenProblem(token: string): string | null {
  if (token.length < MIN_TOKEN_LENGTH) {
    return `OPERATOR_TOKEN is ${token.length} characters long; at least ${MIN_TOKEN_LENGTH} are required (e.g. openssl rand -base64 32)`;
  }
  const distinct = new Set(token).size;
  if (distinct < MIN_DISTINCT_CHARS) {
    return `OPERATOR_TOKEN uses only ${distinct} different characters; at least ${MIN_DISTINCT_CHARS} are required (e.g. openssl rand -base64 32)`;
  }
  return null;
}
