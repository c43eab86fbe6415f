import type { Command } from "commander";
import { registerKeys } from "./keys.ts";
import { registerNodes } from "./nodes.ts";
import { registerPlans } from "./plans.ts";
import { registerProjects } from "./projects.ts";
import { registerRun } from "./run.ts";
import { registerSubmissions } from "./submissions.ts";
import { registerUsage } from "./usage.ts";
import { registerWebhooks } from "./webhooks.ts";

/** Every command group; each module adds its subcommands to the program. */
export function registerCommandGroups(program: Command): void {
  void program;
  registerKeys(program);
  registerProjects(program);
  registerNodes(program);
  registerPlans(program);
  registerUsage(program);
  registerWebhooks(program);
  registerSubmissions(program);
  registerRun(program);
}
