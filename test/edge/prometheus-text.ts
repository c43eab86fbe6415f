// A strict reader of the Prometheus text exposition format (0.0.4), for tests: every line's
// grammar, HELP/TYPE before a family's samples, each family's lines together, no series twice,
// and a histogram's rules (buckets by rising `le`, cumulative, a +Inf bucket equal to `_count`, a
// `_sum`). Throws an Error naming the line on the first violation.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  help: string;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);
const SUFFIXES: Record<string, string[]> = { histogram: ["_bucket", "_sum", "_count"], summary: ["", "_sum", "_count"] };

function parseValue(text: string, where: string): number {
  if (text === "NaN") return NaN;
  if (text === "+Inf" || text === "Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new Error(`${where}: bad value ${JSON.stringify(text)}`);
  return Number(text);
}

/** `{a="x",b="y"}` starting at text[0]; returns the labels and the rest of the line. */
function parseLabels(text: string, where: string): [Record<string, string>, string] {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    if (text[i] === "}") return [labels, text.slice(i + 1)];
    const eq = text.indexOf("=", i);
    if (eq < 0) throw new Error(`${where}: label without '='`);
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`${where}: bad label name ${JSON.stringify(name)}`);
    if (name in labels) throw new Error(`${where}: label ${name} twice`);
    if (text[eq + 1] !== '"') throw new Error(`${where}: label value not quoted`);
    let value = "";
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === "\\") {
        const next = text[++j];
        if (next === "\\" || next === '"') value += next;
        else if (next === "n") value += "\n";
        else throw new Error(`${where}: bad escape \\${next}`);
      } else if (text[j] === "\n") throw new Error(`${where}: raw newline in a label value`);
      else value += text[j];
    }
    if (j >= text.length) throw new Error(`${where}: unterminated label value`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ",") i++;
    else if (text[i] !== "}") throw new Error(`${where}: expected ',' or '}' after label ${name}`);
  }
}

function familyOf(sampleName: string, families: Map<string, Family>): Family | undefined {
  for (const [name, family] of families) {
    const suffixes = SUFFIXES[family.type] ?? [""];
    if (suffixes.some((s) => sampleName === name + s)) return family;
  }
  return undefined;
}

export function parsePrometheusText(text: string): Map<string, Family> {
  if (text.length > 0 && !text.endsWith("\n")) throw new Error("the exposition must end with a newline");
  const families = new Map<string, Family>();
  const series = new Set<string>();
  let current: Family | undefined;
  const closed = new Set<string>();
  const enter = (family: Family, where: string) => {
    if (current === family) return;
    if (current) closed.add(current.name);
    if (closed.has(family.name)) throw new Error(`${where}: ${family.name}'s lines are not together`);
    current = family;
  };
  text.split("\n").slice(0, -1).forEach((line, index) => {
    const where = `line ${index + 1} (${JSON.stringify(line)})`;
    if (line.trim() === "") return;
    const meta = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(line);
    if (meta) {
      const [, kind, name, rest = ""] = meta as unknown as [string, string, string, string | undefined];
      if (!METRIC_NAME.test(name)) throw new Error(`${where}: bad metric name`);
      let family = families.get(name);
      if (!family) families.set(name, (family = { name, type: "untyped", help: "", samples: [] }));
      enter(family, where);
      if (kind === "TYPE") {
        if (!TYPES.has(rest.trim())) throw new Error(`${where}: unknown type`);
        if (family.samples.length) throw new Error(`${where}: TYPE after samples`);
        family.type = rest.trim();
      } else family.help = rest.replace(/\\n/g, "\n").replace(/\\\\/g, "\\");
      return;
    }
    if (line.startsWith("#")) return;
    const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
    if (!nameMatch) throw new Error(`${where}: no metric name`);
    const name = nameMatch[0];
    let rest = line.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith("{")) [labels, rest] = parseLabels(rest, where);
    const fields = rest.trim().split(/\s+/);
    if (!rest.startsWith(" ") || fields.length < 1 || fields.length > 2) throw new Error(`${where}: expected ' value [timestamp]'`);
    const value = parseValue(fields[0]!, where);
    if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1])) throw new Error(`${where}: bad timestamp`);
    let family = familyOf(name, families);
    if (!family) families.set(name, (family = { name, type: "untyped", help: "", samples: [] }));
    enter(family, where);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (series.has(key)) throw new Error(`${where}: series repeated`);
    series.add(key);
    family.samples.push({ name, labels, value });
  });
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

function checkHistogram(family: Family): void {
  const groups = new Map<string, Sample[]>();
  for (const s of family.samples) {
    const key = JSON.stringify(Object.entries(s.labels).filter(([k]) => k !== "le").sort());
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  for (const [key, samples] of groups) {
    const where = `${family.name}${key}`;
    const buckets = samples.filter((s) => s.name.endsWith("_bucket"));
    if (buckets.some((b) => b.labels.le === undefined)) throw new Error(`${where}: a bucket without le`);
    const les = buckets.map((b) => parseValue(b.labels.le!, where));
    for (let i = 1; i < buckets.length; i++) {
      if (!(les[i]! > les[i - 1]!)) throw new Error(`${where}: buckets not in rising le order`);
      if (buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${where}: bucket counts not cumulative`);
    }
    if (les.at(-1) !== Infinity) throw new Error(`${where}: no +Inf bucket`);
    const count = samples.find((s) => s.name === `${family.name}_count`);
    if (!count || count.value !== buckets.at(-1)!.value) throw new Error(`${where}: _count differs from the +Inf bucket`);
    if (!samples.some((s) => s.name === `${family.name}_sum`)) throw new Error(`${where}: no _sum`);
  }
}
