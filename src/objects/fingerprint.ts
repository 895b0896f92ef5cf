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

/** Canonical JSON of a default: scalars as they are, objects with their keys sorted. */
function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'object') return JSON.stringify(value);
  return JSON.stringify(canonical(value));
}

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

/** `name kind default`, the default as canonical JSON or `~` when the parameter has none. */
function param(p: string | MethodParam): string {
  if (typeof p === 'string') return `${p} positional ~`;
  const fallback = 'default' in p ? canonicalJson(p.default) : '~';
  return `${p.name} ${p.kind ?? 'positional'} ${fallback}`;
}

/**
 * The canonical description that is hashed (exposed so a failing check can show it): a header
 * line, a line per field in name order, a line per remote method in name order, then the child
 * versions of a list type, the values of a line separated by tabs:
 *
 *   baton-object/1  <type name>
 *   F  <field>  <kind>  <detail as JSON, or ~>  <1 if nullable + 2 if read-only>  <default as canonical JSON, or ~>
 *   M  <method>  static|instance  <name kind default>...
 *   C  <list version>=<child version>...
 *
 * Unambiguous: names and kinds are identifiers (checked when the type is defined) and JSON
 * holds no raw tab or newline. Short on purpose: building and hashing it is the whole cost of a
 * fingerprint, and a compact text costs half of a JSON one.
 */
export function describeObjectType(type: ObjectType): string {
  let out = `baton-object/1\t${type.name}\n`;
  for (const name of type.sortedFieldNames) {
    const spec = type.fields[name];
    if (spec === undefined) continue;
    const detail = spec.type.detail;
    const flags = (spec.nullable ? 1 : 0) + (spec.readOnly ? 2 : 0);
    const fallback = spec.hasDefault ? canonicalJson(spec.default) : '~';
    out += `F\t${name}\t${spec.type.kind}\t${detail === undefined ? '~' : JSON.stringify(detail)}\t${flags}\t${fallback}\n`;
  }
  for (const name of Object.keys(type.remotable).sort(byCodeUnit)) {
    const method = type.remotable[name];
    if (method === undefined) continue;
    out += `M\t${name}\t${method.static === true ? 'static' : 'instance'}`;
    for (const p of method.params) out += `\t${param(p)}`;
    out += '\n';
  }
  if (type.childVersions !== undefined) {
    out += 'C';
    const entries = Object.entries(type.childVersions).sort(([x], [y]) =>
      compareObjectVersions(x, y),
    );
    for (const [listVersion, childVersion] of entries) out += `\t${listVersion}=${childVersion}`;
    out += '\n';
  }
  return out;
}

/** A type's fingerprint: its version and a hash of its fields and remotable methods. */
export function fingerprint(type: ObjectType): string {
  return `${type.version}-${hash('sha256', describeObjectType(type), 'hex')}`;
}

/** What compareFingerprints found. */
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

/** Compares types' fingerprints with the expected ones: what changed without a version bump. */
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
