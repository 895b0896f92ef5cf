/**
 * What `baton db upgrade` prints when it refuses (the rolling-upgrade doc): which release
 * the database is not compatible with, the command to run with the previous
 * release, and the rows in the way. Pure.
 */
import { renderBoxTable } from '../upgrade-check/box-table.ts';
import type { IncompatibleObjectVersion } from './find-incompatible.ts';

/** How a message names the service and its releases. */
export interface ReleaseNaming {
  /** The service whose database it is (`placement`, `baremetal`). */
  readonly service: string;
  /** The release being installed, as shown to operators. */
  readonly release: string;
}

/** The operator's message for rows at object versions this release cannot read. */
export function incompatibleObjectVersionsMessage(
  rows: readonly IncompatibleObjectVersion[],
  { service, release }: ReleaseNaming,
): string {
  const lines = [
    `The database is not compatible with this release of ${service} (${release}). ` +
      `Please run "baton db online-migrations --service ${service}" using the previous release.`,
  ];
  if (rows.some((row) => row.noVersionColumn)) {
    lines.push(
      'Tables without a version column mean the database is older than the previous release: ' +
        'upgrade one release at a time.',
    );
  }
  lines.push(incompatibleObjectVersionsTable(rows));
  return lines.join('\n');
}

/** The rows as a table: table, object, version (NULL for none), count. */
export function incompatibleObjectVersionsTable(
  rows: readonly IncompatibleObjectVersion[],
): string {
  return renderBoxTable(
    ['table', 'object', 'version', 'count'],
    rows.map((row) => [
      row.table,
      row.objectName,
      row.noVersionColumn ? '(no version column)' : (row.version ?? 'NULL'),
      String(row.count),
    ]),
    { alignRight: [3] },
  );
}
