/**
 * `baton upgrade-check`, like `placement-status upgrade check`: named checks
 * (schema migrations, online data migrations, object versions, service
 * versions, the release pin), a result table, exit 0 / 1 / 2.
 */
import {
  type CheckResult,
  checkFailure,
  checkSchema,
  checkSuccess,
  checkWarning,
  mixedServiceVersionsCheck,
  objectVersionsCheck,
  pendingOnlineMigrationsCheck,
  releasePinCheck,
  renderUpgradeCheckTable,
  runUpgradeChecks,
  type UpgradeCheck,
} from '../db/index.ts';
import {
  type CapsInForce,
  InvalidReleaseMappingError,
  UnknownReleaseError,
} from '../releases/index.ts';
import {
  capsSummary,
  compatibilityOf,
  pinOf,
  readDeployment,
  resolveCapsInForce,
  rowsUnreadableByLiveProcesses,
  type ServiceDefinition,
  tooOldMessage,
  unreadableByLiveMessage,
} from '../service/index.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { type DatabaseOptions, withServiceDatabase } from './command-context.ts';
import { incompatibleDatabaseMessage, incompatibleRows } from './ironic-dbsync-dialect.ts';

export interface UpgradeCheckOptions extends DatabaseOptions {
  readonly pinReleaseVersion?: string;
}

export async function upgradeCheck(
  options: UpgradeCheckOptions,
  out: (line: string) => void,
  /** The service, when a test brings its own definition; else the one `options.service` names. */
  definition?: ServiceDefinition,
): Promise<number> {
  return withServiceDatabase(
    options,
    'existing',
    async (service, db, config) => {
      let caps: CapsInForce;
      try {
        // The pin the service's processes run with: the flag, else the config file's.
        caps = resolveCapsInForce(service, {
          flag: options.pinReleaseVersion,
          file: config.pinReleaseVersion,
        });
      } catch (error) {
        if (error instanceof UnknownReleaseError) throw usageError(error.message);
        if (error instanceof InvalidReleaseMappingError)
          throw new CliExit(error.message, EXIT.failure);
        throw error;
      }
      // Read once: the schema check reports it, the data-migration check depends on it.
      let schema: ReturnType<typeof checkSchema> | undefined;
      const readSchema = () => {
        schema ??= checkSchema(db, service.migrations);
        return schema;
      };
      const schemaCheck: UpgradeCheck = {
        name: 'Schema migrations',
        async run() {
          const report = await readSchema();
          if (report.state === 'current' || report.state === 'ahead') return checkSuccess();
          if (report.state === 'modified') return checkFailure(report.message);
          return checkWarning(report.message);
        },
      };
      const onlineCheck = pendingOnlineMigrationsCheck(db, service.onlineMigrations(config));
      const onlineAfterSchema: UpgradeCheck = {
        name: onlineCheck.name,
        async run() {
          // Data migrations read the tables the schema migrations create.
          const { state } = await readSchema();
          if (state === 'empty' || state === 'behind') {
            return checkWarning(
              'Not checked: the schema is not up to date (see above); run the schema migrations first.',
            );
          }
          return onlineCheck.run();
        },
      };
      const pin = pinOf(caps);
      // The caps a process starting now runs with (the service-version spec): the pin, else the oldest live
      // process's release; a live process too old to talk to fails the check.
      const capsCheck: UpgradeCheck = {
        name: 'Caps in force',
        async run() {
          const deployment = await readDeployment(db, service, pin);
          const summary = capsSummary(deployment.caps, service);
          if (deployment.tooOld.length > 0)
            return checkFailure(`${tooOldMessage(service, deployment.tooOld)} (${summary})`);
          return checkSuccess(summary);
        },
      };
      const checks: UpgradeCheck[] = [
        schemaCheck,
        onlineAfterSchema,
        mixedServiceVersionsCheck(db, { binaries: service.binaries }),
        capsCheck,
        releasePinCheck({ release: pin }),
      ];
      const compatibility = compatibilityOf(service);
      const dialect = service.operatorDialect;
      // The rows against this release, then against every live process: one of an older
      // release that cannot read them fails the check too.
      const readableByLive = async (): Promise<CheckResult | undefined> => {
        const unreadable = await rowsUnreadableByLiveProcesses(db, service);
        if (unreadable.length === 0) return undefined;
        return checkFailure(
          `Live processes cannot read the rows: ${unreadableByLiveMessage(unreadable)}. Replace them with this release, or go back (docs/rehearsal.md, "Going back").`,
        );
      };
      if (dialect !== undefined) {
        // ironic-status's check: its name and, on failure, dbsync's message.
        checks.splice(2, 0, {
          name: 'Object versions',
          async run() {
            const rows = await incompatibleRows(db, service);
            if (rows.length > 0)
              return checkFailure(incompatibleDatabaseMessage(rows, dialect, service.name));
            return (await readableByLive()) ?? checkSuccess();
          },
        });
      } else if (compatibility !== undefined) {
        const rowsCheck = objectVersionsCheck(db, {
          ...compatibility,
          service: service.name,
          release: service.release,
        });
        checks.splice(2, 0, {
          name: rowsCheck.name,
          async run() {
            const result = await rowsCheck.run();
            return result.code === 'success' ? ((await readableByLive()) ?? result) : result;
          },
        });
      }
      const report = await runUpgradeChecks(checks);
      out(renderUpgradeCheckTable(report.rows));
      return report.exitStatus;
    },
    definition,
    'status',
  );
}
