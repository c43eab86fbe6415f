// Output for humans (aligned columns) or machines (--json), chosen by the global --json flag.
import type { Command } from "commander";
import { globals } from "./admin-client.ts";

export function print(command: Command, value: unknown, human: () => string): void {
  console.log(globals(command).json ? JSON.stringify(value, null, 2) : human());
}

/** Aligned columns with a header; cells are stringified, null/undefined shown as "-". */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return "(none)";
  const cells = rows.map((row) => columns.map((column) => (row[column] === null || row[column] === undefined ? "-" : String(row[column]))));
  const widths = columns.map((column, index) => Math.max(column.length, ...cells.map((row) => row[index]!.length)));
  const line = (values: string[]) => values.map((value, index) => value.padEnd(widths[index]!)).join("  ").trimEnd();
  return [line(columns.map((column) => column.toUpperCase())), ...cells.map(line)].join("\n");
}
