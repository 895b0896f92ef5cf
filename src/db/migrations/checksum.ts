/**
 * A migration's checksum: SHA-256 of the canonical JSON of its operations
 * (keys sorted, no whitespace, undefined left out). Recorded when applied, so
 * editing a released migration is caught instead of silently diverging
 * between databases. Any edit counts, even one that means the same SQL.
 * A row recorded part-way covers only the operations applied so far.
 */
import { createHash } from 'node:crypto';
import type { Operation } from './operations.ts';

/** JSON with object keys in sorted order, so equal data gives equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new TypeError(`canonicalJson: ${value} has no JSON form`);
    }
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined && typeof item !== 'function')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`);
  return `{${entries.join(',')}}`;
}

/**
 * The checksum of a migration's operations, recorded with it in the history table: a migration
 * edited after it ran is seen.
 */
export function operationsChecksum(operations: readonly Operation[]): string {
  return createHash('sha256').update(canonicalJson(operations)).digest('hex');
}

/**
 * What a history row's checksum must match: all the operations once the
 * migration is applied; while it is part-way through, the operations already
 * applied (the rest may still be fixed, e.g. after one failed on MariaDB).
 */
export function expectedChecksum(
  operations: readonly Operation[],
  row: { readonly appliedAt: unknown; readonly stepsDone: number },
): string {
  return operationsChecksum(row.appliedAt ? operations : operations.slice(0, row.stepsDone));
}
