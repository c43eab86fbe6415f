// Which pool a submission is scheduled in first: the request's location when the platform gives
// it (Cloudflare's `request.cf`), mapped by the POOL_ROUTES setting, else the default pool.
//
//   POOL_ROUTES = "colo:FRA=eu, colo:AMS=eu, continent:EU=eu, continent:NA=us"
//
// An entry for the request's data center (`colo`, IATA code) wins over one for its continent;
// `colo:*` matches any located request; no entry matches, or no location: "default". Pure, unit tested.
import { DEFAULT_POOL, POOL_NAME } from "../contracts/scheduler.ts";

export interface PoolRoutes {
  colo: ReadonlyMap<string, string>;
  continent: ReadonlyMap<string, string>;
}

export interface RequestLocation {
  colo?: unknown;
  continent?: unknown;
}

export function parsePoolRoutes(spec: string | undefined): PoolRoutes {
  const colo = new Map<string, string>();
  const continent = new Map<string, string>();
  for (const entry of (spec ?? "").split(",").map((e) => e.trim()).filter(Boolean)) {
    const m = /^(colo|continent):([A-Za-z]{2,3}|\*)=(\S+)$/.exec(entry);
    if (!m || !POOL_NAME.test(m[3]!)) {
      console.warn("POOL_ROUTES: ignoring malformed entry", entry);
      continue;
    }
    (m[1] === "colo" ? colo : continent).set(m[2]!.toUpperCase(), m[3]!);
  }
  return { colo, continent };
}

export function poolFor(location: RequestLocation | undefined, routes: PoolRoutes): string {
  const colo = typeof location?.colo === "string" ? (routes.colo.get(location.colo.toUpperCase()) ?? routes.colo.get("*")) : undefined;
  if (colo) return colo;
  const continent = typeof location?.continent === "string" ? routes.continent.get(location.continent.toUpperCase()) : undefined;
  return continent ?? DEFAULT_POOL;
}

/** The chosen pool first, then every other known pool (the fallbacks, in name order). */
export function poolOrder(chosen: string, known: readonly string[]): string[] {
  return [chosen, ...[...new Set(known)].filter((p) => p !== chosen).sort()];
}
