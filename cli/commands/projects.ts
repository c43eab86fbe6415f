// codecell projects …: create, list, show.
import type { Command } from "commander";
import { client } from "../admin-client.ts";
import { print, table } from "../output.ts";

export function registerProjects(program: Command): void {
  const projects = program.command("projects").description("projects (API keys and webhook endpoints belong to one)");

  projects
    .command("create")
    .description("create a project")
    .argument("<name>", "project name")
    .option("-a, --account <account_id>", "account the project belongs to (default: a new account)")
    .action(async (name: string, opts: { account?: string }, cmd: Command) => {
      const p = await client(cmd).call("post", "/admin/projects", { body: { name, ...(opts.account ? { account_id: opts.account } : {}) } });
      print(cmd, p, () => `created project ${p.id} (${p.name}) in account ${p.account_id}`);
    });

  projects
    .command("list")
    .description("list projects")
    .action(async (_opts: unknown, cmd: Command) => {
      const list = await client(cmd).call("get", "/admin/projects");
      print(cmd, list, () => table(list, ["id", "name", "account_id", "created_at"]));
    });

  projects
    .command("show")
    .description("show one project")
    .argument("<project_id>")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const p = await client(cmd).call("get", "/admin/projects/{id}", { params: { id } });
      print(cmd, p, () => table([p], ["id", "name", "account_id", "created_at"]));
    });
}
