// codecell — the CLI: `run` for users (the public API, through the SDK in client/), the rest for
// operators over the edge's admin API (/admin) with the operator token.
// Each command group lives in cli/commands/<group>.ts and registers itself on the program.
import { Command } from "commander";
import { registerCommandGroups } from "./commands/index.ts";
import { CliError } from "./admin-client.ts";

const program = new Command()
  .name("codecell")
  .description("Run code on codecell (codecell run FILE) and operate a deployment: API keys, projects, webhook endpoints, fleet nodes, usage")
  .option("--url <url>", "edge base URL (env CODECELL_URL; then the local stack recorded in .state/dev.json, then https://127.0.0.1:8787)")
  .option("--token <token>", "operator token (env CODECELL_OPERATOR_TOKEN; default: the local stack's)")
  .option("--insecure", "accept a self-signed TLS certificate (the local stack's development certificate)")
  .option("--json", "print machine-readable JSON")
  .showHelpAfterError();

registerCommandGroups(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CliError) {
    console.error(`codecell: ${error.message}`);
    process.exit(error.exitCode);
  }
  throw error;
}
