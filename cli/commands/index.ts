import type { Command } from "commander";

/** Every command group; each module adds its subcommands to the program. */
export function registerCommandGroups(program: Command): void {
  void program;
}
