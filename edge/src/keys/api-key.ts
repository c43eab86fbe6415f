// API keys themselves: `sk_live_` + 32 base62 characters, looked up by their SHA-256 (hex), which is
// all that is ever stored; operators see a fingerprint of the hash.
import { randomBase62, sha256Hex } from "../lib/keys.ts";

export const KEY_PREFIX = "sk_live_";
export const KEY_PATTERN = /^sk_live_[0-9A-Za-z]{32}$/;
/** What development accepts as an imported key (DEV_API_KEY): any 16–128 printable characters. */
const DEV_KEY_PATTERN = /^[\x21-\x7e]{16,128}$/;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBase62(32);
}

/** Whether an operator may import `key` (outside development only the production form). */
export function importableKey(key: string, development: boolean): boolean {
  return KEY_PATTERN.test(key) || (development && DEV_KEY_PATTERN.test(key));
}

/** What a key is stored and found by. */
export function keyHash(key: string): Promise<string> {
  return sha256Hex(key);
}

/** Short, non-secret fingerprint shown to operators (first 8 hex chars of the hash). */
export function keyFingerprint(hashHex: string): string {
  return hashHex.slice(0, 8);
}
