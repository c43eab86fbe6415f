// Project webhook endpoints in KV: whk:<project_id>:<endpoint_id> → WebhookEndpoint.
export interface WebhookEndpoint {
  id: string;
  project_id: string;
  url: string;
  secret: string;
  active: boolean;
  created_at: string;
}

export async function projectEndpoints(kv: KVNamespace, projectId: string): Promise<WebhookEndpoint[]> {
  const out: WebhookEndpoint[] = [];
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<unknown, string> = await kv.list({ prefix: `whk:${projectId}:`, cursor });
    const eps = await Promise.all(page.keys.map((k) => kv.get<WebhookEndpoint>(k.name, "json")));
    for (const e of eps) if (e) out.push(e);
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return out;
}
