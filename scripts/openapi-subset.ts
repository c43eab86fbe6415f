// One document, two generated type files: the SDK's (client/src/api.gen.ts) from the public
// operations, the CLI's (cli/admin-api.gen.ts) from the `admin` ones. A part keeps its operations
// and the components they reach; what only the other part reaches is left out of it.
type Json = Record<string, unknown>;
type Operation = { tags?: string[] };

const COMPONENT_REF = /"#\/components\/([^/"]+)\/([^"]+)"/g;

/** Every component (kind/name) that `roots` reach through $refs, transitively. */
function reached(doc: Json, roots: unknown[]): Set<string> {
  const components = doc.components as Record<string, Json>;
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    for (const [, kind, name] of (JSON.stringify(queue.pop()) ?? "").matchAll(COMPONENT_REF)) {
      const id = `${kind}/${name}`;
      if (seen.has(id)) continue;
      seen.add(id);
      queue.push(components[kind!]?.[name!]);
    }
  }
  return seen;
}

function operations(doc: Json, admin: boolean): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
    const kept = Object.entries(methods).filter(([, op]) => (op.tags ?? []).includes("admin") === admin);
    if (kept.length) out[path] = Object.fromEntries(kept);
  }
  return out;
}

/** The public operations (and the webhooks), or the admin ones, with the components they need. */
export function subset(doc: Json, part: "public" | "admin"): Json {
  const admin = part === "admin";
  const paths = operations(doc, admin);
  const webhooks = admin ? undefined : doc.webhooks;
  const own = reached(doc, [paths, webhooks]);
  const others = reached(doc, [operations(doc, !admin), admin ? doc.webhooks : undefined]);
  const keep = (id: string) => own.has(id) || (!admin && !others.has(id));
  const components = Object.fromEntries(Object.entries(doc.components as Record<string, Json>).map(([kind, entries]) =>
    [kind, Object.fromEntries(Object.entries(entries).filter(([name]) => keep(`${kind}/${name}`)))]));
  const { webhooks: _all, ...rest } = doc;
  return { ...rest, paths, ...(webhooks ? { webhooks } : {}), components };
}
