/**
 * Fingerprints: `<version>-<sha256>` of a canonical description of an object
 * type — its fields (name, type, nullability, default, read-only), its remote
 * method signatures and, for lists, its child versions. A fingerprint that
 * changes while the version does not means someone changed the type without
 * bumping its version, which breaks peers running the previous release.
 */
import { createHash } from 'node:crypto';
import { OffsetDateTime } from './datetime.ts';
import type { MethodParam, ObjectType } from './object-type.ts';
import { compareObjectVersions } from './version.ts';

function canonical(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof OffsetDateTime) return value.isoformat();
  if (value instanceof Set) return { set: [...value].map(canonical).sort() };
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort())
      result[key] = canonical((value as Record<string, unknown>)[key]);
    return result;
  }
  return value;
}

function param(p: string | MethodParam): unknown[] {
  if (typeof p === 'string') return [p, 'positional', false, null];
  return [p.name, p.kind ?? 'positional', 'default' in p, canonical(p.default)];
}

/** The canonical description that is hashed (exposed so a failing check can show it). */
export function describeObjectType(type: ObjectType): string {
  const fields = [...type.fieldNames].sort().map((name) => {
    const spec = type.fields[name];
    if (spec === undefined) return [name];
    return [
      name,
      spec.type.kind,
      spec.type.detail ?? null,
      spec.nullable,
      spec.hasDefault ? canonical(spec.default) : '<no default>',
      spec.readOnly,
    ];
  });
  const methods = Object.keys(type.remotable)
    .sort()
    .map((name) => {
      const method = type.remotable[name];
      return [name, method?.static === true, (method?.params ?? []).map(param)];
    });
  const children = type.childVersions
    ? Object.entries(type.childVersions).sort(([a], [b]) => compareObjectVersions(a, b))
    : null;
  return JSON.stringify({ name: type.name, fields, methods, childVersions: children });
}

export function fingerprint(type: ObjectType): string {
  const hash = createHash('sha256').update(describeObjectType(type)).digest('hex');
  return `${type.version}-${hash}`;
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
