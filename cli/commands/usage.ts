// codecell usage: per key — requests in the last minute against the rate limit, 429s, in-flight
// submissions against the quota, and totals.
import type { Command } from "commander";
import { client } from "../admin-client.ts";
import type { Schemas } from "../admin-client.ts";
import { print, table } from "../output.ts";

export function registerUsage(program: Command): void {
  program
    .command("usage")
    .description("per-key usage: requests in the last minute, 429s, in flight vs quota, totals")
    .argument("[key_id]", "one key (default: every key)")
    .option("-p, --project <project_id>", "only this project's keys")
    .action(async (keyId: string | undefined, opts: { project?: string }, cmd: Command) => {
      const c = client(cmd);
      const list: Schemas["KeyUsage"][] = keyId
        ? [await c.call("get", "/admin/keys/{id}/usage", { params: { id: keyId } })]
        : await c.call("get", "/admin/usage", { query: { project: opts.project || undefined } });
      print(cmd, keyId ? list[0] : list, () =>
        table(
          list.map((u) => ({
            key_id: u.key_id, name: u.name, project: u.project_id,
            "req/min": `${u.requests_last_minute}/${u.rate_limit_per_min}`,
            "429s": `${u.rejected_429} (rate ${u.rejected_rate_limit}, quota ${u.rejected_concurrency})`,
            in_flight: `${u.in_flight}/${u.max_in_flight}`, requests: u.totals.requests, submissions: u.totals.submissions,
            completed: u.totals.completed, errors: u.totals.errors,
          })),
          ["key_id", "name", "project", "req/min", "429s", "in_flight", "requests", "submissions", "completed", "errors"],
        ));
    });
}
