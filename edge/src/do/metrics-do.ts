// MetricsDO: the edge's request metrics, one object for the whole edge. Isolates add what they
// counted (at most once a second each, off the request's path); totals live in SQLite, so they
// survive the object's restarts, and are read by GET /admin/metrics.
import { DurableObject } from "cloudflare:workers";
import type { MetricSample, MetricsRpc } from "../contracts/metrics.ts";
import type { Env } from "../env.ts";

export class MetricsDO extends DurableObject<Env> implements MetricsRpc {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS series (
      name TEXT NOT NULL, labels TEXT NOT NULL, value REAL NOT NULL, PRIMARY KEY (name, labels))`);
  }

  add(samples: MetricSample[]): void {
    this.ctx.storage.transactionSync(() => {
      for (const s of samples) {
        if (!Number.isFinite(s.value)) continue;
        this.ctx.storage.sql.exec(
          "INSERT INTO series (name, labels, value) VALUES (?, ?, ?) ON CONFLICT (name, labels) DO UPDATE SET value = value + excluded.value",
          s.name, JSON.stringify(s.labels), s.value,
        );
      }
    });
  }

  totals(): MetricSample[] {
    return this.ctx.storage.sql.exec<{ name: string; labels: string; value: number }>("SELECT name, labels, value FROM series").toArray()
      .map((row) => ({ name: row.name, labels: JSON.parse(row.labels) as Record<string, string>, value: row.value }));
  }
}
