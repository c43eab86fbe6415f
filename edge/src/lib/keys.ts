// Secrets and identifiers: random base62 strings, SHA-256 in hex, comparisons that leak no timing.
// (API keys themselves: keys/api-key.ts.)

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniform base62 string via rejection sampling (256 % 62 != 0, so plain modulo would be biased). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < 248) out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function randomId(prefix: string): string {
  return prefix + randomBase62(16);
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  let hex = "";
  for (const b of new Uint8Array(digest)) hex += HEX[b];
  return hex;
}

/**
 * Constant-time equality of two strings. Length differences are folded into the result instead of
 * returning early, so the time depends only on the longer input's length, not on where they differ.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  const len = Math.max(ea.length, eb.length);
  let diff = ea.length ^ eb.length;
  for (let i = 0; i < len; i++) diff |= (ea[i] ?? 0) ^ (eb[i] ?? 0);
  return diff === 0;
}

/**
 * Equality of two secrets without leaking either's length or where they differ: both are hashed
 * (SHA-256) and the equal-length digests compared in full. For a presented token against the
 * configured one, where constantTimeEqual's running time would follow the longer input.
 */
export async function secretsEqual(presented: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([presented, expected].map(async (s) => new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s)))));
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= a![i]! ^ b![i]!;
  return diff === 0;
}
