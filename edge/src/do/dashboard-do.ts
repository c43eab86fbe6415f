// DashboardDO: the operators' live view (one object). Dashboards connect by WebSocket (hibernation
// API). While any is connected, the registry, the schedulers and the keys are told to report their
// changes here (a lease renewed every LEASE_RENEW_MS); a report marks the view stale and one
// snapshot goes out shortly after. Nothing changed, nothing sent.
import { DurableObject } from "cloudflare:workers";
import type { DashboardEvent, DashboardRpc, DashboardSnapshot } from "../contracts/dashboard.ts";
import type { KeyMeta, KeyUsage } from "../contracts/key.ts";
import { config } from "../env.ts";
import type { Config, Env } from "../env.ts";
import { keyRow, listKeyMetas, verdictCounts } from "../dashboard/key-rows.ts";
import { planOf } from "../plans/plans.ts";
import { fleetRegistry, keyObject } from "../stubs.ts";

const LEASE_MS = 60_000;
const LEASE_RENEW_MS = 20_000;
/** A burst of reports becomes one snapshot this long after the first. */
const COALESCE_MS = 200;
const KEY_LIST_MS = 10_000;

export class DashboardDO extends DurableObject<Env> implements DashboardRpc {
  #cfg: Config;
  #keys: { at: number; metas: KeyMeta[] } | null = null;
  #usage = new Map<string, KeyUsage>();
  #leaseRenewedAt = 0;
  /** When the snapshot a report asked for goes out; null: nothing changed since the last one. */
  #flushAt: number | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#cfg = config(env);
  }

  changed(event: DashboardEvent): void {
    if (event.source === "key") this.#usage.set(event.hash, event.usage);
    if (!this.#watching() || this.#flushAt !== null) return;
    this.#flushAt = Date.now() + COALESCE_MS;
    this.ctx.waitUntil(this.#arm());
  }

  keysChanged(): void {
    this.#keys = null;
    // The next alarm asks the new key to report too.
    this.#leaseRenewedAt = 0;
    this.changed({ source: "fleet" });
  }

  async snapshot(): Promise<DashboardSnapshot> {
    const [overview, metas] = await Promise.all([fleetRegistry(this.env).overview(), this.#keyMetas()]);
    const missing = metas.filter((m) => !this.#usage.has(m.hash));
    await Promise.all(missing.map(async (m) => {
      const u = await keyObject(this.env, m.hash).usage().catch(() => null);
      if (u) this.#usage.set(m.hash, u);
    }));
    return {
      generated_at: new Date().toISOString(),
      limits: { rate_per_min: this.#cfg.rateLimit, max_in_flight: this.#cfg.maxInFlight, queue_capacity: this.#cfg.queueCapacity },
      queue_depth: overview.status.queue_depth,
      fleet: overview.status,
      pools: overview.pools,
      nodes: overview.nodes,
      keys: await Promise.all(metas.map(async (m) => keyRow(m, this.#usage.get(m.hash), await planOf(this.env, m)))),
      recent: overview.recent,
      verdicts: verdictCounts(overview.recent),
    };
  }

  /** Dashboard WebSocket (the Worker checked the operator session before forwarding the upgrade). */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") return new Response("expected a WebSocket upgrade", { status: 426 });
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1], ["dashboard"]);
    this.#keys = null;
    this.#usage.clear();
    this.#flushAt = null;
    this.ctx.waitUntil((async () => {
      await this.#renewLease();
      await this.#arm();
      pair[1].send(JSON.stringify({ type: "snapshot", data: await this.snapshot() }));
    })().catch((e: unknown) => console.error("dashboard first snapshot failed", String(e))));
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // The page may ask for a snapshot at once ("refresh"); anything else is ignored.
    if (message === "refresh") ws.send(JSON.stringify({ type: "snapshot", data: await this.snapshot() }));
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "bye");
    } catch {}
  }

  /** Sends the snapshot a report asked for, and renews the lease while dashboards are connected. */
  override async alarm(): Promise<void> {
    if (!this.#watching()) {
      this.#flushAt = null;
      return;
    }
    if (Date.now() - this.#leaseRenewedAt >= LEASE_RENEW_MS) {
      await this.#renewLease().catch((e: unknown) => console.warn("dashboard lease renewal failed", String(e)));
    }
    if (this.#flushAt !== null && this.#flushAt <= Date.now()) {
      this.#flushAt = null;
      try {
        this.#broadcast(await this.snapshot());
      } catch (e) {
        console.error("dashboard snapshot failed", String(e));
      }
    }
    await this.#arm();
  }

  /** One alarm for both: the pending snapshot, else the next lease renewal. */
  #arm(): Promise<void> {
    return this.ctx.storage.setAlarm(Math.min(this.#flushAt ?? Infinity, this.#leaseRenewedAt + LEASE_RENEW_MS));
  }

  #watching(): boolean {
    return this.ctx.getWebSockets("dashboard").length > 0;
  }

  /** Everyone whose changes show here reports them until the lease ends. */
  async #renewLease(): Promise<void> {
    this.#leaseRenewedAt = Date.now();
    const until = this.#leaseRenewedAt + LEASE_MS;
    const metas = await this.#keyMetas();
    await Promise.all([
      fleetRegistry(this.env).watch(until),
      ...metas.map((m) => keyObject(this.env, m.hash).watch(until, m.hash)),
    ]);
  }

  async #keyMetas(): Promise<KeyMeta[]> {
    if (this.#keys && Date.now() - this.#keys.at < KEY_LIST_MS) return this.#keys.metas;
    const metas = await listKeyMetas(this.env.KEYS);
    this.#keys = { at: Date.now(), metas };
    return metas;
  }

  #broadcast(s: DashboardSnapshot): void {
    const msg = JSON.stringify({ type: "snapshot", data: s });
    for (const ws of this.ctx.getWebSockets("dashboard")) {
      try {
        ws.send(msg);
      } catch {}
    }
  }
}
