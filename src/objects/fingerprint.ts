/**
 * Fingerprints: `<version>-<sha256>` of a canonical description of an object
 * type — its fields (name, type, nullability, default, read-only), its remote
 * method signatures and, for lists, its child versions. A fingerprint that
 * changes while the version does not means someone changed the type without
 * bumping its version, which breaks peers running the previous release.
 */
import { hash } from 'node:crypto';
import { OffsetDateTime } from './datetime.ts';
import type { MethodParam, ObjectType } from './object-type.ts';
import { compareObjectVersions } from './version.ts';

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function canonical(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof OffsetDateTime) return value.isoformat();
  if (value instanceof Set)
    return { set: [...value].map((item) => JSON.stringify(canonical(item))).sort(byCodeUnit) };
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(byCodeUnit))
      result[key] = canonical((value as Record<string, unknown>)[key]);
    return result;
  }
  return value;
}

function param(p: string | MethodParam): string {
  if (typeof p === 'string') return `[${quote(p)},"positional",false,null]`;
  const fallback = 'default' in p ? JSON.stringify(canonical(p.default)) : 'null';
  return `[${quote(p.name)},${quote(p.kind ?? 'positional')},${'default' in p},${fallback}]`;
}

/** Whether a string needs JSON escaping: quotes, backslashes, control and surrogate code units. */
function needsEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (
      code < 0x20 ||
      code === 0x22 ||
      code === 0x5c ||
      (code >= 0xd800 && code <= 0xdfff) ||
      code === 0x2028 ||
      code === 0x2029
    ) {
      return true;
    }
  }
  return false;
}

const quote = (text: string): string => (needsEscape(text) ? JSON.stringify(text) : `"${text}"`);

/**
 * The canonical description that is hashed (exposed so a failing check can
 * show it). Built by hand rather than through JSON.stringify of nested
 * arrays, which costs several times more.
 */
export function describeObjectType(type: ObjectType): string {
  const names = type.sortedFieldNames;
  let out = `{"name":${quote(type.name)},"fields":[`;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const spec = type.fields[name];
    if (spec === undefined) continue;
    const detail = spec.type.detail;
    const fallback = spec.hasDefault ? JSON.stringify(canonical(spec.default)) : '"<no default>"';
    out += `${i > 0 ? ',' : ''}[${quote(name)},${quote(spec.type.kind)},${detail === undefined ? 'null' : quote(detail)},${spec.nullable},${fallback},${spec.readOnly}]`;
  }
  out += '],"methods":[';
  const methods = Object.keys(type.remotable).sort(byCodeUnit);
  for (let i = 0; i < methods.length; i++) {
    const name = methods[i] as string;
    const method = type.remotable[name];
    const params = (method?.params ?? []).map(param).join(',');
    out += `${i > 0 ? ',' : ''}[${quote(name)},${method?.static === true},[${params}]]`;
  }
  const children = type.childVersions
    ? JSON.stringify(
        Object.entries(type.childVersions).sort(([a], [b]) => compareObjectVersions(a, b)),
      )
    : 'null';
  return `${out}],"childVersions":${children}}`;
}

export function fingerprint(type: ObjectType): string {
  return `${type.version}-${hash('sha256', describeObjectType(type), 'hex')}`;
}

export interface FingerprintReport {
  /** Types whose fields or methods changed while their version stayed the same. */
  changedWithoutVersionBump: string[];
  /** Types whose version changed: the expected table needs their new fingerprint. */
  versionBumped: string[];
  /** Types with no entry in the expected table. */
  unexpected: string[];
  /** Entries of the expected table for which no type was given. */
  missing: string[];
  /** The actual table, to paste into the test after a deliberate change. */
  actual: Record<string, string>;
}

export function compareFingerprints(
  types: readonly ObjectType[],
  expected: Readonly<Record<string, string>>,
): FingerprintReport {
  const report: FingerprintReport = {
    changedWithoutVersionBump: [],
    versionBumped: [],
    unexpected: [],
    missing: [],
    actual: {},
  };
  const seen = new Set<string>();
  for (const type of types) {
    const actual = fingerprint(type);
    report.actual[type.name] = actual;
    seen.add(type.name);
    const wanted = expected[type.name];
    if (wanted === undefined) report.unexpected.push(type.name);
    else if (wanted !== actual) {
      const wantedVersion = wanted.split('-')[0];
      if (wantedVersion === type.version) report.changedWithoutVersionBump.push(type.name);
      else report.versionBumped.push(type.name);
    }
  }
  for (const name of Object.keys(expected)) if (!seen.has(name)) report.missing.push(name);
  return report;
}

/**
 * Test helper: throws unless every type's fingerprint equals the expected
 * table, naming first the types changed without a version bump.
 */
export function assertFingerprints(
  types: readonly ObjectType[],
  expected: Readonly<Record<string, string>>,
): void {
  const report = compareFingerprints(types, expected);
  const problems: string[] = [];
  if (report.changedWithoutVersionBump.length > 0) {
    problems.push(
      `changed without a version bump (bump the version and add a conversion step): ${report.changedWithoutVersionBump.join(', ')}`,
    );
  }
  if (report.versionBumped.length > 0)
    problems.push(`version bumped, update the table: ${report.versionBumped.join(', ')}`);
  if (report.unexpected.length > 0)
    problems.push(`not in the table: ${report.unexpected.join(', ')}`);
  if (report.missing.length > 0)
    problems.push(`in the table but not given: ${report.missing.join(', ')}`);
  if (problems.length > 0) {
    throw new Error(
      `object fingerprints differ:\n- ${problems.join('\n- ')}\nactual: ${JSON.stringify(report.actual, null, 2)}`,
    );
  }
}
