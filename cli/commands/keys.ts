// codecell keys …: create (the key is printed once), list, show, revoke, rotate.
import type { Command } from "commander";
import { client } from "../admin-client.ts";
import { print, table } from "../output.ts";

export function registerKeys(program: Command): void {
  const keys = program.command("keys").description("API keys: create, list, revoke, rotate");

  keys
    .command("create")
    .description("create an API key in a project; the key is printed once and never again")
    .requiredOption("-p, --project <project_id>", "project the key belongs to")
    .option("-n, --name <name>", "a label for the key")
    .option("--plan <name>", "the key's plan (codecell plans list); default: the default plan")
    .action(async (opts: { project: string; name?: string; plan?: string }, cmd: Command) => {
      const body = { ...(opts.name ? { name: opts.name } : {}), ...(opts.plan !== undefined ? { plan: opts.plan } : {}) };
      const k = await client(cmd).call("post", "/admin/projects/{id}/keys", { params: { id: opts.project }, body });
      print(cmd, k, () =>
        [
          `created key ${k.key_id} (${k.name || "unnamed"}) in project ${k.project_id}, plan ${k.plan}`,
          "",
          `  ${k.key}`,
          "",
          "This is the only time the key is shown. Store it now; if it is lost, rotate the key.",
        ].join("\n"),
      );
    });

  keys
    .command("list")
    .description("list API keys (never their secret values)")
    .option("-p, --project <project_id>", "only this project's keys")
    .action(async (opts: { project?: string }, cmd: Command) => {
      const list = await client(cmd).call("get", "/admin/keys", { query: { project: opts.project || undefined } });
      print(cmd, list, () => table(list, ["key_id", "name", "project_id", "fingerprint", "tier", "plan", "created_at"]));
    });

  keys
    .command("show")
    .description("show one key (without its secret value)")
    .argument("<key_id>")
    .action(async (keyId: string, _opts: unknown, cmd: Command) => {
      const k = await client(cmd).call("get", "/admin/keys/{id}", { params: { id: keyId } });
      print(cmd, k, () => table([k], ["key_id", "name", "project_id", "fingerprint", "tier", "plan", "created_at"]));
    });

  keys
    .command("revoke")
    .description("revoke a key: requests with it are refused (401) from this moment, and its submissions in flight end")
    .argument("<key_id>")
    .action(async (keyId: string, _opts: unknown, cmd: Command) => {
      const r = await client(cmd).call("delete", "/admin/keys/{id}", { params: { id: keyId } });
      print(cmd, r, () => `revoked ${r.key_id}: requests with it are refused from now on; ${r.cancelled_submissions} submission(s) in flight cancelled`);
    });

  keys
    .command("rotate")
    .description("give a key a new secret value; the old value is refused at once (printed once)")
    .argument("<key_id>")
    .action(async (keyId: string, _opts: unknown, cmd: Command) => {
      const k = await client(cmd).call("post", "/admin/keys/{id}/rotate", { params: { id: keyId } });
      print(cmd, k, () =>
        [
          `rotated ${k.key_id}: fingerprint ${k.previous_fingerprint} → ${k.fingerprint}; the old value no longer works`,
          "",
          `  ${k.key}`,
          "",
          "This is the only time the new key is shown.",
        ].join("\n"),
      );
    });
}
