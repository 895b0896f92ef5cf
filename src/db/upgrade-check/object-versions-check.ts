/**
 * Check: rows at object versions the target release does not support
 * (the rolling-upgrade doc). A failure: that release's `db upgrade` would refuse to run.
 */
import type { Database } from '../connect.ts';
import {
  type FindIncompatibleOptions,
  findIncompatibleObjectVersions,
  type ReleaseNaming,
} from '../object-versions/index.ts';
import {
  type CheckResult,
  checkFailure,
  checkSuccess,
  type UpgradeCheck,
} from './upgrade-check.ts';

export interface ObjectVersionsCheckOptions extends FindIncompatibleOptions, ReleaseNaming {
  readonly name?: string;
}

/** The upgrade check that fails while rows are at object versions the new release cannot read. */
export function objectVersionsCheck(
  db: Database,
  options: ObjectVersionsCheckOptions,
): UpgradeCheck {
  return {
    name: options.name ?? `Object versions for ${options.release}`,
    async run(): Promise<CheckResult> {
      const rows = await findIncompatibleObjectVersions(db, options);
      if (rows.length === 0) return checkSuccess();
      const count = rows.reduce((sum, row) => sum + row.count, 0);
      const list = rows
        .map((row) =>
          row.noVersionColumn
            ? `${row.table} has no version column`
            : `${row.table} ${row.objectName} ${row.version ?? 'NULL'}: ${row.count}`,
        )
        .join(', ');
      return checkFailure(
        `${count} row(s) are at object versions ${options.service} ${options.release} does not ` +
          `support (${list}). Run "baton db online-migrations --service ${options.service}" ` +
          `with the current release until it exits with 0, then upgrade.`,
      );
    },
  };
}
