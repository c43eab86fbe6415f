// codecell submissions cancel: an operator ends a submission in flight; its run stops at its node.
import type { Command } from "commander";
import { client } from "../admin-client.ts";
import { print } from "../output.ts";

export function registerSubmissions(program: Command): void {
  const submissions = program.command("submissions").description("submissions in flight: cancel");

  submissions
    .command("cancel")
    .description("end a submission in flight: it becomes `error` with the reason, and its run is killed at its node")
    .argument("<submission_id>")
    .option("-r, --reason <text>", "why (shown in the record's error_message; at most 200 characters)")
    .action(async (id: string, opts: { reason?: string }, cmd: Command) => {
      const r = await client(cmd).call("post", "/admin/submissions/{id}/cancel", { params: { id }, body: opts.reason ? { reason: opts.reason } : undefined });
      print(cmd, r, () => `cancelled ${r.id}: it ended as error, and its run was stopped at its node`);
    });
}
