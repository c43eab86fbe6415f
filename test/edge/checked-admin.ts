// The operator client the tests use (scripts/stack/operator.ts), with every answer of a documented
// admin route validated against docs/openapi.json: a wrong admin schema, or an undocumented status,
// fails the test that met it.
import { admin as stackAdmin } from "../../scripts/stack/index.ts";
import type { Res } from "../../scripts/stack/index.ts";
import { DOCUMENT, assertDocumented, templateOf } from "./openapi-check.ts";

/** Validates `res` when `method path` is a documented operation; paths the document has not are left alone. */
export function checkAdminAnswer(method: string, path: string, res: Res): Res {
  let template: string;
  try {
    template = templateOf(path);
  } catch {
    return res;
  }
  if (DOCUMENT.paths[template]?.[method.toLowerCase()]) assertDocumented(method, path, res);
  return res;
}

export function admin(edge: Parameters<typeof stackAdmin>[0]): ReturnType<typeof stackAdmin> {
  const ops = stackAdmin(edge);
  return {
    ...ops,
    call: async (method, path, body) => checkAdminAnswer(method, path, await ops.call(method, path, body)),
    registerNode: async (node, name) => checkAdminAnswer("POST", "/admin/nodes", await ops.registerNode(node, name)),
  };
}
