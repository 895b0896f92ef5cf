/**
 * The text `baton db online-migrations` prints for a report: a row per
 * migration, then one line saying what to do next, worded like
 * `ironic-dbsync online_data_migrations`. Pure.
 */
import { incompatibleObjectVersionsMessage } from '../object-versions/index.ts';
import { renderBoxTable } from '../upgrade-check/box-table.ts';
import type { OnlineMigrationsReport } from './report.ts';
import { waitingMessage } from './service-gate.ts';

/** The closing line for the report's outcome. */
export function onlineMigrationsVerdict(report: OnlineMigrationsReport): string {
  switch (report.outcome) {
    case 'complete':
      return 'Data migrations have completed.';
    case 'incomplete':
      return report.timeLimitReached
        ? 'Data migrations have not completed: the maximum run time was reached. Please re-run.'
        : 'Data migrations have not completed. Please re-run.';
    case 'waiting': {
      const m = report.migrations.find((r) => r.status === 'waiting');
      const why = m?.waitingFor
        ? `${m.name} is ${waitingMessage(m.waitingFor)}`
        : 'a migration is waiting';
      return `Data migrations have not completed: ${why}. Upgrade those services, then re-run.`;
    }
    case 'failed': {
      const m = report.migrations.find((r) => r.status === 'failed');
      return `Error while running ${m?.name ?? 'a migration'}: ${m?.error?.message ?? 'unknown error'}.`;
    }
    case 'incompatible':
      return 'The database has rows at object versions this release cannot read.';
  }
}

/** The text `db online-migrations` prints for a report. */
export function renderOnlineMigrationsReport(
  report: OnlineMigrationsReport,
  naming?: { readonly release: string },
): string {
  if (report.outcome === 'incompatible' && naming !== undefined) {
    return incompatibleObjectVersionsMessage(report.incompatible ?? [], {
      service: report.service,
      release: naming.release,
    });
  }
  const table = renderBoxTable(
    ['migration', 'total', 'migrated', 'remaining', 'status'],
    report.migrations.map((m) => [
      m.name,
      String(m.total),
      String(m.migrated),
      m.remaining === undefined ? '-' : String(m.remaining),
      m.status,
    ]),
    { alignRight: [1, 2, 3] },
  );
  return `${table}\n${onlineMigrationsVerdict(report)}`;
}
