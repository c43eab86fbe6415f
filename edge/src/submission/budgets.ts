// What one submission may hold in a shard's memory while it runs (docs/edge.md, "Memory budgets").
// A shard hosts many tenants' submissions, and a Durable Object past its memory limit (128 MB on
// Cloudflare) is reset with all of them, so nothing a program prints may grow without bound here.
// What it may print at all is its output budget (proto/limits.ts), enforced by its node.

/**
 * Event entries (raw output bytes, small frames) held in memory before they are written. Past it,
 * the submission is written at once (a synchronous one stops being held in memory) and its
 * entries go to storage, where nothing keeps them in memory again (scoped-kv.ts putThrough).
 */
export const EVENT_MEMORY_BYTES = 1024 * 1024;

/**
 * Output bytes held per stream past OUTPUT_EVENT_CAP (events.ts) before they are sent as one
 * event anyway: the number of events stays bounded by the output's size over this.
 */
export const HELD_OUTPUT_BYTES = 256 * 1024;

/** Counter of spills (entries written early because EVENT_MEMORY_BYTES was reached), at /admin/metrics. */
export const SPILLS_METRIC = "codecell_edge_submission_spills_total";
/** Gauges of the two budgets above, at /admin/metrics. */
export const EVENT_BUDGET_METRIC = "codecell_edge_submission_event_memory_budget_bytes";
export const HELD_BUDGET_METRIC = "codecell_edge_submission_held_output_budget_bytes";
