// The operator's calls a stack needs to be usable: a project and key, a node registered.
import { request, type Res } from "./http.ts";

export interface OperatorTarget {
  base: string;
  operatorToken: string;
}

export function admin(edge: OperatorTarget) {
  const headers = { authorization: `Bearer ${edge.operatorToken}` };
  return {
    call: (method: string, path: string, body?: unknown) => request(edge.base, method, path, { headers, body }),
    async newKey(projectId?: string): Promise<{ key: string; key_id: string; project_id: string }> {
      let pid = projectId;
      if (!pid) {
        const p = await request(edge.base, "POST", "/admin/projects", { headers, body: { name: "test" } });
        if (p.status !== 201) throw new Error(`create project: ${p.status} ${p.text}`);
        pid = p.json.id as string;
      }
      const k = await request(edge.base, "POST", `/admin/projects/${pid}/keys`, { headers, body: { name: "k" } });
      if (k.status !== 201) throw new Error(`create key: ${k.status} ${k.text}`);
      return k.json;
    },
    registerNode(node: { url: string; token: string }, name = "test-node"): Promise<Res> {
      return request(edge.base, "POST", "/admin/nodes", { headers, body: { url: node.url, token: node.token, name } });
    },
    /** Registers the node, or throws with the edge's answer (a stack that cannot start). */
    async mustRegisterNode(node: { url: string; token: string }, name = "test-node"): Promise<void> {
      const r = await this.registerNode(node, name);
      if (r.status !== 201) throw new Error(`registering the node: ${r.status} ${r.text}`);
    },
  };
}
