/**
 * Which rows a release's code cannot read: those at an object version newer than the newest it
 * knows of their type (a newer release wrote them), at another major version, NULL or not a
 * version at all. A type the reader does not know is a table it never reads, so none of its
 * rows count. Pure: the counts come from `countObjectVersions`.
 */
import { compareObjectVersions, parseObjectVersion } from '../../objects/index.ts';
import type { ObjectVersionCounts } from './version-counts.ts';

/** Rows of one table at object versions newer than a reader knows. */
export interface UnreadableRows {
  readonly table: string;
  readonly objectName: string;
  /** The version found; null for NULL. */
  readonly version: string | null;
  readonly count: number;
}

/** `newest(objectName)`: the newest version the reader knows of a type, or undefined. */
export function rowsNewerThan(
  counts: readonly ObjectVersionCounts[],
  newest: (objectName: string) => string | undefined,
): UnreadableRows[] {
  const found: UnreadableRows[] = [];
  for (const { table, objectName, rows } of counts) {
    const known = newest(objectName);
    if (known === undefined) continue;
    for (const [version, count] of Object.entries(rows)) {
      if (!readable(version, known)) {
        found.push({ table, objectName, version: version === 'null' ? null : version, count });
      }
    }
  }
  return found;
}

function readable(version: string, newest: string): boolean {
  const parsed = parseObjectVersion(version);
  const known = parseObjectVersion(newest);
  if (parsed === null || known === null || parsed[0] !== known[0]) return false;
  return compareObjectVersions(version, newest) <= 0;
}

/** `nodes Node 1.38: 12 rows, …` for messages. */
export function describeUnreadableRows(rows: readonly UnreadableRows[]): string {
  return rows
    .map((row) => `${row.table} ${row.objectName} ${row.version ?? 'NULL'}: ${row.count} row(s)`)
    .join(', ');
}
