// Host-side helpers for detection (run once at start-up; trusted input only).
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import type { Toolchain } from "../language-spec.ts";

/**
 * How long one detection command may take. Generous: on a loaded or emulated host a compiler's
 * first start takes many seconds, and a toolchain given up on is a language the node never offers.
 */
const DETECT_TIMEOUT_MS = 60_000;

/** A command's stdout and stderr together, or undefined if it failed or took over DETECT_TIMEOUT_MS. */
export function output(command: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, args, { encoding: "utf8", timeout: DETECT_TIMEOUT_MS, env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" } }, (error, stdout, stderr) => {
      resolve(error ? undefined : `${stdout}${stderr}`);
    });
  });
}

export const executable = (path: string) => {
  try {
    return statSync(path).isFile() && (statSync(path).mode & 0o111) !== 0;
  } catch {
    return false;
  }
};

export const match = (text: string | undefined, pattern: RegExp) => (text ? pattern.exec(text)?.[1] : undefined);

export const readText = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

/** Entries of a directory (none if it is missing). */
export const entries = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** "1.23.5" → "1.23"; "17.0.15" → "17" (`parts` leading numbers). */
export const shortVersion = (version: string, parts: number) => version.split(".").slice(0, parts).join(".");

/** Newest first by numeric components ("1.23.5" before "1.9.2"). */
export function compareVersionsDescending(a: string, b: string): number {
  const x = a.split(/[.+-]/).map(Number);
  const y = b.split(/[.+-]/).map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (y[i] || 0) - (x[i] || 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The one toolchain of a language offered in a single version, as a list. */
export const one = async (toolchain: Promise<Toolchain | undefined>): Promise<Toolchain[]> => {
  const found = await toolchain;
  return found ? [found] : [];
};

/** The toolchains found, in the order their candidates were given. */
export const present = (found: (Toolchain | undefined)[]): Toolchain[] => found.filter((toolchain): toolchain is Toolchain => toolchain !== undefined);
