// Prometheus text exposition format (version 0.0.4) for the edge's metrics: a few lines of glue
// rather than prom-client, which needs Node's runtime.
import type { MetricSample } from "../contracts/metrics.ts";
import { DOOR_FAILURES_METRIC } from "../contracts/door.ts";
import { DURATION, REQUESTS } from "./recorder.ts";
import { EVENT_BUDGET_METRIC, EVENT_MEMORY_BYTES, HELD_BUDGET_METRIC, HELD_OUTPUT_BYTES, SPILLS_METRIC } from "../submission/budgets.ts";

export const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

interface Family {
  name: string;
  type: "counter" | "histogram" | "gauge";
  help: string;
}

export const FAMILIES: Family[] = [
  { name: REQUESTS, type: "counter", help: "Requests answered by the edge, by route pattern, method and HTTP status." },
  { name: DURATION, type: "histogram", help: "Time from a request's arrival to its response headers, by route pattern." },
  { name: SPILLS_METRIC, type: "counter", help: "Times a submission's event frames reached their memory budget and were written to storage early." },
  {
    name: DOOR_FAILURES_METRIC, type: "counter",
    help: "Wrong operator tokens presented at /admin or the dashboard's sign-in, by door and outcome (refused: 401, throttled: 429).",
  },
  { name: EVENT_BUDGET_METRIC, type: "gauge", help: "Bytes of event entries one submission may hold in a shard's memory before they are written." },
  { name: HELD_BUDGET_METRIC, type: "gauge", help: "Output bytes held per stream past the output event cap before they are sent as one event." },
];

/** The budgets' values, shown beside the totals (constants, not summed). */
export const BUDGET_SAMPLES: MetricSample[] = [
  { name: EVENT_BUDGET_METRIC, labels: {}, value: EVENT_MEMORY_BYTES },
  { name: HELD_BUDGET_METRIC, labels: {}, value: HELD_OUTPUT_BYTES },
];

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
const escapeHelp = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

function formatValue(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}

function sampleLine(s: MetricSample): string {
  const pairs = Object.entries(s.labels);
  const labels = pairs.length ? `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")}}` : "";
  return `${s.name}${labels} ${formatValue(s.value)}`;
}

const SUFFIX_ORDER = ["_bucket", "_sum", "_count"];
const leOf = (s: MetricSample) => {
  const le = s.labels.le;
  return le === undefined ? 0 : le === "+Inf" ? Infinity : Number(le);
};
const seriesOf = (s: MetricSample) => JSON.stringify(Object.entries(s.labels).filter(([k]) => k !== "le"));

/** Every family with HELP and TYPE, its samples together: a histogram's buckets by `le`, then sum and count. */
export function render(samples: MetricSample[]): string {
  const lines: string[] = [];
  for (const family of FAMILIES) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    const suffix = (s: MetricSample) => (family.type === "histogram" ? SUFFIX_ORDER.indexOf(s.name.slice(family.name.length)) : 0);
    const own = samples.filter((s) => s.name.startsWith(family.name) && suffix(s) >= 0 && (family.type === "histogram" || s.name === family.name));
    own.sort((a, b) => seriesOf(a).localeCompare(seriesOf(b)) || suffix(a) - suffix(b) || leOf(a) - leOf(b));
    lines.push(...own.map(sampleLine));
  }
  return lines.join("\n") + "\n";
}
