// codecell webhooks …: add (the signing secret is printed once), list, show, remove, test, rotate,
// enable, disable, deliveries. Endpoints belong to a project, so every command takes --project.
import type { Command } from "commander";
import { CliError, EXIT, client } from "../admin-client.ts";
import type { Schemas } from "../admin-client.ts";
import { print, table } from "../output.ts";

const rows = (eps: Schemas["WebhookEndpoint"][]) =>
  eps.map((e) => ({ ...e, active: e.active ? "yes" : "no", secrets: e.secrets.length }));
const COLUMNS = ["id", "url", "active", "secrets", "created_at"];

function secretNotice(secret: string, what: string): string[] {
  return ["", `  ${secret}`, "", `This is the only time the ${what} is shown. Give it to the receiver now (it verifies deliveries with it).`];
}

export function registerWebhooks(program: Command): void {
  const hooks = program
    .command("webhooks")
    .description("project webhook endpoints: add, list, remove, test, rotate, enable, disable, deliveries");
  endpoints(hooks);
  secretsAndDeliveries(hooks);
}

function endpoints(hooks: Command): void {
  hooks
    .command("add")
    .description("add an endpoint to a project; the signing secret (whsec_…) is printed once")
    .requiredOption("-p, --project <project_id>", "project whose submissions are delivered")
    // The URL is positional: --url is the global option naming the edge itself.
    .argument("<url>", "https URL that receives a POST per finished submission")
    .option("-s, --secret <whsec>", "use this signing secret (whsec_ + base64 of 24-64 bytes) instead of a generated one")
    .option("-d, --description <text>", "a label for the endpoint")
    .option("--inactive", "create it disabled (enable later with `webhooks enable`)")
    .action(async (url: string, opts: { project: string; secret?: string; description?: string; inactive?: boolean }, cmd: Command) => {
      const body = {
        url,
        ...(opts.secret ? { secret: opts.secret } : {}),
        ...(opts.description ? { description: opts.description } : {}),
        ...(opts.inactive ? { active: false } : {}),
      };
      const e = await client(cmd).call("post", "/admin/projects/{id}/webhooks", { params: { id: opts.project }, body });
      print(cmd, e, () =>
        [
          `added endpoint ${e.id} (${e.active ? "active" : "inactive"}) to project ${e.project_id}: ${e.url}`,
          ...secretNotice(e.secret, "signing secret"),
        ].join("\n"),
      );
    });

  hooks
    .command("list")
    .description("list a project's endpoints (never their secrets)")
    .requiredOption("-p, --project <project_id>", "project")
    .action(async (opts: { project: string }, cmd: Command) => {
      const list = await client(cmd).call("get", "/admin/projects/{id}/webhooks", { params: { id: opts.project } });
      print(cmd, list, () => table(rows(list), COLUMNS));
    });

  hooks
    .command("show")
    .description("show one endpoint (never its secrets)")
    .requiredOption("-p, --project <project_id>", "project")
    .argument("<endpoint_id>")
    .action(async (id: string, opts: { project: string }, cmd: Command) => {
      const e = await client(cmd).call("get", "/admin/projects/{id}/webhooks/{wid}", { params: { id: opts.project, wid: id } });
      print(cmd, e, () =>
        [
          table(rows([e]), COLUMNS),
          "",
          ...e.secrets.map((s, i) => `secret ${i + 1}: created ${s.created_at}${s.expires_at ? `, signs until ${s.expires_at}` : " (current)"}`),
        ].join("\n"),
      );
    });

  hooks
    .command("remove")
    .alias("rm")
    .description("remove an endpoint; deliveries still scheduled to it stop")
    .requiredOption("-p, --project <project_id>", "project")
    .argument("<endpoint_id>")
    .action(async (id: string, opts: { project: string }, cmd: Command) => {
      const r = await client(cmd).call("delete", "/admin/projects/{id}/webhooks/{wid}", { params: { id: opts.project, wid: id } });
      print(cmd, r, () => `removed endpoint ${r.id}`);
    });

  for (const [name, active] of [["enable", true], ["disable", false]] as const) {
    hooks
      .command(name)
      .description(active ? "resume deliveries to an endpoint" : "pause deliveries to an endpoint (it is kept, with its secret)")
      .requiredOption("-p, --project <project_id>", "project")
      .argument("<endpoint_id>")
      .action(async (id: string, opts: { project: string }, cmd: Command) => {
        const e = await client(cmd).call("patch", "/admin/projects/{id}/webhooks/{wid}", { params: { id: opts.project, wid: id }, body: { active } });
        print(cmd, e, () => `endpoint ${e.id} is now ${e.active ? "active" : "inactive"}`);
      });
  }
}

function secretsAndDeliveries(hooks: Command): void {
  hooks
    .command("rotate")
    .description("give an endpoint a new signing secret (printed once); the old one keeps signing during the grace period")
    .requiredOption("-p, --project <project_id>", "project")
    .argument("<endpoint_id>")
    .option("-g, --grace <seconds>", "how long the old secret keeps signing (0 = stop now)", "86400")
    .option("-s, --secret <whsec>", "use this new secret instead of a generated one")
    .action(async (id: string, opts: { project: string; grace: string; secret?: string }, cmd: Command) => {
      const grace = Number(opts.grace);
      if (!Number.isInteger(grace) || grace < 0) throw new CliError("--grace must be a whole number of seconds ≥ 0", EXIT.failure);
      const e = await client(cmd).call("post", "/admin/projects/{id}/webhooks/{wid}/rotate", {
        params: { id: opts.project, wid: id }, body: { grace_seconds: grace, ...(opts.secret ? { secret: opts.secret } : {}) },
      });
      print(cmd, e, () =>
        [
          `rotated the signing secret of ${e.id}; ` +
            (e.previous_secrets_expire_at
              ? `the previous secret keeps signing until ${e.previous_secrets_expire_at} (deliveries carry both signatures)`
              : "the previous secret no longer signs"),
          ...secretNotice(e.secret, "new secret"),
        ].join("\n"),
      );
    });

  hooks
    .command("test")
    .description("send one signed test delivery now and report the receiver's answer (exit 1 if not 2xx)")
    .requiredOption("-p, --project <project_id>", "project")
    .argument("<endpoint_id>")
    .action(async (id: string, opts: { project: string }, cmd: Command) => {
      const r = await client(cmd).call("post", "/admin/projects/{id}/webhooks/{wid}/test", { params: { id: opts.project, wid: id } });
      print(cmd, r, () =>
        r.delivered
          ? `delivered test event ${r.webhook_id} to ${r.endpoint_id}: HTTP ${r.status} in ${r.latency_ms} ms`
          : `test delivery to ${r.endpoint_id} failed: ${r.error ?? `HTTP ${r.status}`} (${r.latency_ms} ms)`,
      );
      if (!r.delivered) process.exitCode = EXIT.failure;
    });

  hooks
    .command("deliveries")
    .description("the delivery log of one submission: every attempt per endpoint (time, status, latency, error)")
    .requiredOption("-p, --project <project_id>", "project")
    .argument("<submission_id>")
    .option("-e, --endpoint <endpoint_id>", "only this endpoint")
    .action(async (sub: string, opts: { project: string; endpoint?: string }, cmd: Command) => {
      const c = client(cmd);
      const log = opts.endpoint
        ? await c.call("get", "/admin/projects/{id}/webhooks/{wid}/deliveries/{sub}", { params: { id: opts.project, wid: opts.endpoint, sub } })
        : await c.call("get", "/admin/projects/{id}/webhooks/deliveries/{sub}", { params: { id: opts.project, sub } });
      print(cmd, log, () => {
        const attempts = log.endpoints.flatMap((e) =>
          e.log.map((a) => ({ endpoint: e.endpoint_id, ...a, status: a.status ?? "-", error: a.error ?? "" })),
        );
        const states = log.endpoints.map((e) =>
          `${e.endpoint_id}: ${e.state} after ${e.attempts} attempt(s)${e.next_attempt_at ? `, next at ${e.next_attempt_at}` : ""}`);
        const attemptTable = table(attempts, ["endpoint", "attempt", "started_at", "status", "latency_ms", "outcome", "error"]);
        return [`submission ${log.submission_id}`, ...states, "", attemptTable].join("\n");
      });
    });
}
