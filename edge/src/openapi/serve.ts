// GET /api/openapi.json (no key) and the /docs page: Swagger UI (swagger-ui-dist from npm, served
// from the Worker's static assets, wrangler.toml [assets]) rendering that document. Nothing is
// loaded from another origin, so the page works offline.
import type { Env } from "../env.ts";
import { HttpError } from "../lib/http.ts";
import { openApiText } from "./document.ts";

/** The renderer's files the page uses, by their path under /docs/. */
const ASSET_FILES = new Set(["swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png"]);

function onlyGet(request: Request): void {
  if (request.method !== "GET" && request.method !== "HEAD") throw new HttpError(405, { error: "method not allowed" }, { allow: "GET, HEAD" });
}

export function serveOpenApi(request: Request): Response {
  onlyGet(request);
  return new Response(openApiText(), {
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=300", "access-control-allow-origin": "*" },
  });
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>codecell API reference</title><link rel="icon" href="/docs/favicon-32x32.png"><link rel="stylesheet" href="/docs/swagger-ui.css">
<style>body{margin:0} .topbar{display:none}</style></head><body>
<div id="docs"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({
  url: "/api/openapi.json", dom_id: "#docs", deepLinking: true, validatorUrl: null,
  docExpansion: "list", defaultModelsExpandDepth: 1, defaultModelExpandDepth: 3, displayRequestDuration: true,
});
</script></body></html>`;

export async function serveDocs(request: Request, env: Env, path: string): Promise<Response> {
  onlyGet(request);
  if (path === "/docs") {
    return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" } });
  }
  const file = path.slice("/docs/".length);
  if (!ASSET_FILES.has(file) || !env.ASSETS) throw new HttpError(404, { error: "not found" });
  const res = await env.ASSETS.fetch(new URL(`/${file}`, request.url));
  if (!res.ok) throw new HttpError(404, { error: "not found" });
  return res;
}
