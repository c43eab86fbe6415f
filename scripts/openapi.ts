// `npm run openapi`: writes the OpenAPI document (docs/openapi.json), the SDK's types generated
// from its public operations and the components no admin operation uses, the live-session messages
// among them (client/src/api.gen.ts), and the CLI's from its `admin` operations
// (cli/admin-api.gen.ts). `--check`: exits 1 when a committed file is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import openapiTS from "openapi-typescript";
import { buildOpenApi, openApiText } from "../edge/src/openapi/document.ts";
import { subset } from "./openapi-subset.ts";

const ROOT = join(import.meta.dirname, "..");
export const DOCUMENT_PATH = join(ROOT, "docs", "openapi.json");
export const TYPES_PATH = join(ROOT, "client", "src", "api.gen.ts");
export const ADMIN_TYPES_PATH = join(ROOT, "cli", "admin-api.gen.ts");

const HEADER = "// Generated from docs/openapi.json by `npm run openapi` (openapi-typescript). Do not edit.\n\n";
const ADMIN_HEADER = "// Generated from the `admin` operations of docs/openapi.json by `npm run openapi` (openapi-typescript). Do not edit.\n\n";

export async function generated(): Promise<{ path: string; text: string }[]> {
  const doc = buildOpenApi();
  const types = await openapiTS(subset(doc, "public") as never, { commentHeader: HEADER, silent: true });
  const adminTypes = await openapiTS(subset(doc, "admin") as never, { commentHeader: ADMIN_HEADER, silent: true });
  return [
    { path: DOCUMENT_PATH, text: openApiText() },
    { path: TYPES_PATH, text: types },
    { path: ADMIN_TYPES_PATH, text: adminTypes },
  ];
}

function current(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

if (import.meta.main) {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const { path, text } of await generated()) {
    if (current(path) === text) continue;
    if (check) {
      console.error(`${path} is stale: run npm run openapi`);
      stale++;
    } else {
      writeFileSync(path, text);
      console.log(`wrote ${path}`);
    }
  }
  process.exitCode = stale ? 1 : 0;
}
