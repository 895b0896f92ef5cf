/**
 * A strict reader of Prometheus's text exposition format (version 0.0.4), for tests: every
 * line must be a HELP, a TYPE or a sample of a declared family; names, label syntax and
 * escapes, and values are checked; a histogram's buckets must carry `le`, never decrease,
 * and end with `+Inf` equal to its `_count`. A second opinion comes from Python's
 * prometheus_client parser (`parseWithPythonClient`), Debian's python3-prometheus-client.
 */
import { execFileSync } from 'node:child_process';

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  readonly type: string;
  readonly help: string;
  readonly samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Readonly<Record<string, readonly string[]>> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

/** As Prometheus reads a value (Go's ParseFloat: `NaN` and `Inf` in any case; prom-client writes `Nan`). */
function parseValue(text: string, line: string): number {
  const special = /^([-+]?)(inf|infinity|nan)$/i.exec(text);
  if (special !== null) {
    if ((special[2] as string).toLowerCase() === 'nan') return Number.NaN;
    return special[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) {
    throw new Error(`bad value '${text}' in: ${line}`);
  }
  return Number(text);
}

/** Reads `{a="x",b="y\"z"}` from `text` at `start` ('{'); returns the labels and the end. */
function parseLabels(text: string, start: number, line: string) {
  const labels: Record<string, string> = {};
  let i = start + 1;
  while (text[i] !== '}') {
    const nameMatch = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(text.slice(i));
    if (nameMatch === null) throw new Error(`bad label name in: ${line}`);
    const name = nameMatch[0];
    i += name.length;
    if (text.slice(i, i + 2) !== '="') throw new Error(`expected =" after ${name} in: ${line}`);
    i += 2;
    let value = '';
    for (;;) {
      const c = text[i];
      if (c === undefined) throw new Error(`unterminated label value in: ${line}`);
      if (c === '"') break;
      if (c === '\\') {
        const next = text[i + 1];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape \\${next} in: ${line}`);
        i += 2;
        continue;
      }
      if (c === '\n') throw new Error(`raw newline in label value: ${line}`);
      value += c;
      i++;
    }
    i++;
    if (Object.hasOwn(labels, name)) throw new Error(`label ${name} twice in: ${line}`);
    labels[name] = value;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`expected , or } in: ${line}`);
  }
  return { labels, end: i + 1 };
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const helps = new Map<string, string>();
  if (text !== '' && !text.endsWith('\n'))
    throw new Error('the exposition must end with a newline');
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) {
      const [, name, help = ''] = /^# HELP (\S+) ?(.*)$/.exec(line) ?? [];
      if (name === undefined || !NAME.test(name)) throw new Error(`bad HELP: ${line}`);
      helps.set(name, help);
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [, name, type] = /^# TYPE (\S+) (\S+)$/.exec(line) ?? [];
      if (name === undefined || type === undefined || !NAME.test(name) || !TYPES.has(type)) {
        throw new Error(`bad TYPE: ${line}`);
      }
      if (families.has(name)) throw new Error(`TYPE of ${name} given twice`);
      families.set(name, { name, type, help: helps.get(name) ?? '', samples: [] });
      continue;
    }
    if (line.startsWith('#')) continue;
    const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
    if (nameMatch === null) throw new Error(`bad sample: ${line}`);
    const name = nameMatch[0];
    let rest = line.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) {
      const parsed = parseLabels(line, name.length, line);
      labels = parsed.labels;
      rest = line.slice(parsed.end);
    }
    const parts = rest.trim().split(/\s+/);
    if (parts.length < 1 || parts.length > 2 || !rest.startsWith(' ')) {
      throw new Error(`bad sample: ${line}`);
    }
    const value = parseValue(parts[0] as string, line);
    const family = [...families.values()].find((f) =>
      (SUFFIXES[f.type] ?? ['']).some((suffix) => `${f.name}${suffix}` === name),
    );
    if (family === undefined) throw new Error(`sample of an undeclared family: ${line}`);
    for (const label of Object.keys(labels)) {
      if (!LABEL_NAME.test(label)) throw new Error(`bad label ${label}`);
    }
    family.samples.push({ name, labels, value });
  }
  for (const family of families.values()) {
    if (family.type === 'histogram') checkHistogram(family);
  }
  return families;
}

function seriesKey(labels: Readonly<Record<string, string>>): string {
  return JSON.stringify(
    Object.entries(labels)
      .filter(([name]) => name !== 'le')
      .sort(),
  );
}

function checkHistogram(family: Family): void {
  const series = new Map<string, { buckets: [number, number][]; count?: number }>();
  for (const sample of family.samples) {
    const key = seriesKey(sample.labels);
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (sample.name.endsWith('_bucket')) {
      const le = sample.labels.le;
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      entry.buckets.push([parseValue(le, le), sample.value]);
    } else if (sample.name.endsWith('_count')) entry.count = sample.value;
  }
  for (const [key, { buckets, count }] of series) {
    for (let i = 1; i < buckets.length; i++) {
      const [le, value] = buckets[i] as [number, number];
      const [previousLe, previous] = buckets[i - 1] as [number, number];
      if (le <= previousLe || value < previous) {
        throw new Error(`${family.name} ${key}: buckets out of order or decreasing`);
      }
    }
    const last = buckets.at(-1);
    if (last?.[0] !== Number.POSITIVE_INFINITY || last[1] !== count) {
      throw new Error(`${family.name} ${key}: the +Inf bucket must equal _count`);
    }
  }
}

/** The value of the sample `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name !== name) continue;
      if (Object.entries(labels).every(([k, v]) => sample.labels[k] === v)) return sample.value;
    }
  }
  return undefined;
}

/** Python's prometheus_client parser: the families and their sample counts, or it throws. */
export function parseWithPythonClient(text: string): Record<string, number> {
  const script = `
import json, sys
from prometheus_client.parser import text_string_to_metric_families
print(json.dumps({f.name: len(f.samples) for f in text_string_to_metric_families(sys.stdin.read())}))
`;
  return JSON.parse(
    execFileSync('/usr/bin/python3', ['-c', script], { input: text, encoding: 'utf8' }),
  ) as Record<string, number>;
}
