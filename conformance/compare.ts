/**
 * Compares one answer of Baton's Placement with the real service's answer to the same request
 * (pure). UUIDs the servers made up themselves differ between the two: they are paired as the
 * walk meets them (a bijection kept for the whole scenario), so a generated uuid must be the
 * same one everywhere it appears. Request ids and dates are compared by shape only.
 */

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON when the body is JSON, else the text ('' when empty). */
  readonly body: unknown;
  readonly text: string;
}

export interface Difference {
  /** Where: `status`, `header vary`, `body.errors[0].code`... */
  readonly where: string;
  readonly baton: unknown;
  readonly real: unknown;
}

const UUID = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/gi;
const REQUEST_ID = /^req-[0-9a-f-]{36}$/;

/** Headers compared by value (normalised), and those compared by presence only. */
const VALUE_HEADERS = [
  'openstack-api-version',
  'vary',
  'content-type',
  'location',
  'cache-control',
  'allow',
];
// Baton also sends `openstack-request-id` (a documented deviation), so only the real name counts.
const PRESENCE_HEADERS = ['last-modified', 'x-openstack-request-id'];

export class UuidPairs {
  readonly #toReal = new Map<string, string>();
  readonly #toBaton = new Map<string, string>();

  /** Pairs two uuids; false when either is already paired with another. */
  pair(baton: string, real: string): boolean {
    const b = baton.toLowerCase().replaceAll('-', '');
    const r = real.toLowerCase().replaceAll('-', '');
    const knownReal = this.#toReal.get(b);
    const knownBaton = this.#toBaton.get(r);
    if (knownReal === undefined && knownBaton === undefined) {
      this.#toReal.set(b, r);
      this.#toBaton.set(r, b);
      return true;
    }
    return knownReal === r && knownBaton === b;
  }
}

function normaliseHeader(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  switch (name) {
    case 'vary':
      return v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter((s) => s !== '')
        .sort()
        .join(', ');
    case 'allow':
      // Compared in order: clients may show it, and the real order is fixed.
      return v
        .split(',')
        .map((s) => s.trim().toUpperCase())
        .join(', ');
    case 'content-type':
      return v.toLowerCase().replaceAll(' ', '');
    case 'location':
      return v.replace(/^https?:\/\/[^/]+/, '');
    default:
      return v;
  }
}

/** Two strings equal once their uuids are paired (positionally) and request ids ignored. */
function sameString(baton: string, real: string, pairs: UuidPairs): boolean {
  if (baton === real) {
    for (const id of baton.match(UUID) ?? []) pairs.pair(id, id);
    return true;
  }
  if (REQUEST_ID.test(baton) && REQUEST_ID.test(real)) return true;
  const b = baton.match(UUID) ?? [];
  const r = real.match(UUID) ?? [];
  if (b.length === 0 || b.length !== r.length) return false;
  if (baton.replace(UUID, 'U') !== real.replace(UUID, 'U')) return false;
  return b.every((id, i) => pairs.pair(id, r[i] as string));
}

/** A value's text with generated uuids blanked and every list and key set sorted. */
function unordered(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.replace(UUID, 'U'));
  if (Array.isArray(value)) return `[${value.map(unordered).sort().join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(
      ([k, v]) => `${unordered(k)}:${unordered(v)}`,
    );
    return `{${entries.sort().join(',')}}`;
  }
  return JSON.stringify(value);
}

function walk(
  baton: unknown,
  real: unknown,
  where: string,
  pairs: UuidPairs,
  out: Difference[],
): void {
  if (typeof baton === 'string' && typeof real === 'string') {
    if (!sameString(baton, real, pairs)) out.push({ where, baton, real });
    return;
  }
  if (Array.isArray(baton) && Array.isArray(real)) {
    if (baton.length !== real.length) {
      out.push({ where: `${where}.length`, baton: baton.length, real: real.length });
      return;
    }
    const positional: Difference[] = [];
    baton.forEach((item, i) => {
      walk(item, real[i], `${where}[${i}]`, pairs, positional);
    });
    if (positional.length === 0) return;
    // Lists whose order the reference leaves to the database or to Python sets (nested lists
    // too, such as candidates' mappings): same elements, another order.
    const sortedB = baton.map(unordered).sort();
    const sortedR = real.map(unordered).sort();
    if (sortedB.every((k, i) => k === sortedR[i])) {
      out.push({ where: `${where} (order only)`, baton: baton.length, real: real.length });
    } else out.push(...positional);
    return;
  }
  if (
    baton &&
    real &&
    typeof baton === 'object' &&
    typeof real === 'object' &&
    !Array.isArray(baton) &&
    !Array.isArray(real)
  ) {
    const b = baton as Record<string, unknown>;
    const r = real as Record<string, unknown>;
    const keys = new Set([...Object.keys(b), ...Object.keys(r)]);
    // Object keys may themselves be generated uuids (allocations by provider or consumer).
    const bOnly = [...keys].filter((k) => !(k in r));
    const rOnly = [...keys].filter((k) => !(k in b));
    const paired = new Map<string, string>();
    if (bOnly.length === rOnly.length && bOnly.length > 0) {
      const bs = [...bOnly].sort();
      const rs = [...rOnly].sort();
      if (bs.every((k, i) => sameString(k, rs[i] as string, pairs))) {
        bs.forEach((k, i) => {
          paired.set(k, rs[i] as string);
        });
      }
    }
    for (const key of keys) {
      if (paired.has(key)) {
        walk(b[key], r[paired.get(key) as string], `${where}.${key}`, pairs, out);
      } else if ([...paired.values()].includes(key)) {
      } else if (!(key in b))
        out.push({ where: `${where}.${key}`, baton: '(missing)', real: r[key] });
      else if (!(key in r))
        out.push({ where: `${where}.${key}`, baton: b[key], real: '(missing)' });
      else walk(b[key], r[key], `${where}.${key}`, pairs, out);
    }
    return;
  }
  if (!Object.is(baton, real)) out.push({ where, baton, real });
}

export function compareAnswers(baton: Answer, real: Answer, pairs: UuidPairs): Difference[] {
  const out: Difference[] = [];
  if (baton.status !== real.status)
    out.push({ where: 'status', baton: baton.status, real: real.status });
  for (const name of VALUE_HEADERS) {
    const b = normaliseHeader(name, baton.headers[name]);
    const r = normaliseHeader(name, real.headers[name]);
    if (b === r) continue;
    if (b !== undefined && r !== undefined && sameString(b, r, pairs)) continue;
    out.push({ where: `header ${name}`, baton: b ?? '(absent)', real: r ?? '(absent)' });
  }
  for (const name of PRESENCE_HEADERS) {
    const b = name in baton.headers;
    const r = name in real.headers;
    if (b !== r) out.push({ where: `header ${name} present`, baton: b, real: r });
  }
  walk(baton.body, real.body, 'body', pairs, out);
  return out;
}
