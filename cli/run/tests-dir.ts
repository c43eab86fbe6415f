// Test cases from a directory: NAME.in is a test's stdin, NAME.out (optional) its expected output.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "../admin-client.ts";
import { RUN_EXIT } from "./verdict.ts";

export interface TestCase {
  name: string;
  stdin: string;
  expected_output?: string;
}

/** The directory's test cases, sorted by name; a usage error when there are none or a .out has no .in. */
export function readTestsDir(dir: string): TestCase[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (error) {
    throw new CliError(`cannot read the tests directory ${dir}: ${(error as Error).message}`, RUN_EXIT.usage);
  }
  const inputs = new Set(entries.filter((f) => f.endsWith(".in")).map((f) => f.slice(0, -3)));
  const orphan = entries.find((f) => f.endsWith(".out") && !inputs.has(f.slice(0, -4)));
  if (orphan) throw new CliError(`${join(dir, orphan)} has no matching ${orphan.slice(0, -4)}.in`, RUN_EXIT.usage);
  if (inputs.size === 0) throw new CliError(`no test cases in ${dir}: expected NAME.in files (with optional NAME.out)`, RUN_EXIT.usage);
  return [...inputs].sort().map((name) => {
    const test: TestCase = { name, stdin: readFileSync(join(dir, `${name}.in`), "utf8") };
    if (entries.includes(`${name}.out`)) test.expected_output = readFileSync(join(dir, `${name}.out`), "utf8");
    return test;
  });
}
