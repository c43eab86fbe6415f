// Which pool a submission is scheduled in first: the pool its location maps to
// (scheduling/pool-routes.ts, setting POOL_ROUTES). When that pool cannot take it, its scheduler
// names the others (submission/queue-pool.ts).
import { DEFAULT_POOL } from "../contracts/scheduler.ts";
import type { Env } from "../env.ts";
import { parsePoolRoutes, poolFor } from "./pool-routes.ts";
import type { PoolRoutes, RequestLocation } from "./pool-routes.ts";

let routes: { spec: string | undefined; parsed: PoolRoutes } | null = null;

export function choosePool(request: Request, env: Env): string {
  if (routes === null || routes.spec !== env.POOL_ROUTES) routes = { spec: env.POOL_ROUTES, parsed: parsePoolRoutes(env.POOL_ROUTES) };
  // Without routes every request goes to the default pool: `request.cf` (parsed anew on each read) is not read.
  if (routes.parsed.colo.size === 0 && routes.parsed.continent.size === 0) return DEFAULT_POOL;
  return poolFor(request.cf as RequestLocation | undefined, routes.parsed);
}
