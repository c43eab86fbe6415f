// The admin operation behind each CLI command (by its words): what the command prints with --json
// is that operation's answer, so the operator tests check it against docs/openapi.json.
import { assertOperationAnswer } from "../edge/openapi-check.ts";

const OPERATIONS: Record<string, string> = {
  "projects create": "adminCreateProject", "projects list": "adminListProjects", "projects show": "adminShowProject",
  "keys create": "adminCreateKey", "keys list": "adminListKeys", "keys show": "adminShowKey", "keys revoke": "adminDeleteKey", "keys rotate": "adminRotateKey",
  "usage": "adminUsage", "usage <key>": "adminKeyUsage",
  "plans list": "adminListPlans", "plans show": "adminShowPlan", "plans set": "adminSetPlan",
  "nodes add": "adminRegisterNode", "nodes list": "adminListNodes", "nodes drain": "adminDrainNode", "nodes approve": "adminApproveNode",
  "nodes revoke": "adminRevokeNode", "nodes remove": "adminRemoveNode",
  "nodes token create": "adminCreateEnrollmentToken", "nodes token list": "adminListEnrollmentTokens", "nodes token revoke": "adminRevokeEnrollmentToken",
  "webhooks add": "adminCreateWebhook", "webhooks list": "adminListWebhooks", "webhooks show": "adminShowWebhook", "webhooks remove": "adminRemoveWebhook",
  "webhooks rm": "adminRemoveWebhook", "webhooks enable": "adminUpdateWebhook", "webhooks disable": "adminUpdateWebhook",
  "webhooks rotate": "adminRotateWebhook", "webhooks test": "adminTestWebhook", "webhooks deliveries": "adminWebhookDeliveries",
  "submissions cancel": "adminCancelSubmission",
};

/** Global options that take a value (cli/main.ts). */
const GLOBAL_WITH_VALUE = new Set(["--url", "--token"]);

/** The command's words, without the global options before them. */
function words(args: string[]): string[] {
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (GLOBAL_WITH_VALUE.has(args[i]!)) i++;
    else if (!args[i]!.startsWith("-")) rest.push(args[i]!);
    else if (rest.length) break;
  }
  return rest;
}

/** Checks what a successful `--json` command printed against its operation's answers (`run` is not an admin command). */
export function assertCommandAnswer(args: string[], json: unknown): void {
  const w = words(args);
  if (w[0] === "run") return;
  const name = [3, 2, 1].map((n) => w.slice(0, n).join(" ")).find((n) => OPERATIONS[n]);
  if (!name) throw new Error(`codecell ${w.join(" ")}: no admin operation known for it (test/operators/cli-operations.ts)`);
  const operation = name === "usage" && w.length > 1 ? OPERATIONS["usage <key>"]! : OPERATIONS[name]!;
  assertOperationAnswer(operation, json);
}
