/**
 * Check: online data migrations still to run. Rows left behind block the
 * next upgrade (its `db upgrade` refuses rows at versions it cannot read,
 * and it no longer ships these migrations), so the operator must hear of it.
 *
 * - success: no migration has anything to do;
 * - warning (default) or failure (`pendingIs: 'failure'`, for the check run
 *   right before moving to the next release): rows are pending, including
 *   migrations waiting for services to be upgraded;
 * - failure: a migration cannot even count its rows (unreadable data, a
 *   missing table): running the migrations would fail too.
 */
import type { Database } from '../connect.ts';
import {
  findPendingOnlineMigrations,
  type OnlineMigrationRegistry,
  waitingMessage,
} from '../online-migrations/index.ts';
import type { LivenessOptions } from '../services/index.ts';
import {
  type CheckResult,
  checkFailure,
  checkSuccess,
  type UpgradeCheck,
} from './upgrade-check.ts';

/** How pendingOnlineMigrationsCheck rates the work it finds. */
export interface PendingOnlineMigrationsCheckOptions extends LivenessOptions {
  readonly pendingIs?: 'warning' | 'failure';
  readonly name?: string;
}

/** The upgrade check that reports online migrations with rows left. */
export function pendingOnlineMigrationsCheck(
  db: Database,
  registry: OnlineMigrationRegistry,
  options: PendingOnlineMigrationsCheckOptions = {},
): UpgradeCheck {
  const command = `baton db online-migrations --service ${registry.service}`;
  return {
    name: options.name ?? 'Online data migrations',
    async run(): Promise<CheckResult> {
      const probes = await findPendingOnlineMigrations(db, registry, options);
      const broken = probes.filter((p) => p.error !== undefined);
      if (broken.length > 0) {
        const list = broken.map((p) => `${p.name}: ${p.error?.message}`).join('; ');
        return checkFailure(`Online data migrations cannot run: ${list}.`);
      }
      const pending = probes.filter((p) => (p.pending ?? 0) > 0);
      if (pending.length === 0) return checkSuccess();
      const list = pending
        .map((p) => {
          const rows = `${p.name}: ${p.pending} row(s)`;
          return p.waitingFor ? `${rows}, ${waitingMessage(p.waitingFor)}` : rows;
        })
        .join('; ');
      return {
        code: options.pendingIs ?? 'warning',
        details: `Online data migrations have rows to migrate (${list}). Run "${command}" until it exits with 0 before the next upgrade.`,
      };
    },
  };
}
