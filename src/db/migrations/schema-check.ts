/**
 * Is the database's schema the one this code was written for? Run at service
 * startup. New code on an older schema refuses to start (it would query
 * columns that are not there) and says which command upgrades it. A schema
 * that a newer release has already upgraded is fine for this code: the
 * policy only lets migrations expand the schema, which is what makes a
 * rolling upgrade possible, so 'ahead' is reported, not refused, as long as
 * it is ahead by one release: the previous release's processes keep running
 * (and restarting) through the rolling-upgrade doc's steps. Ahead by two releases or more,
 * this code is older than the release before the schema's, whose contract
 * migrations may have dropped what it reads: it refuses to start.
 */
import type { Database } from '../connect.ts';
import { expectedChecksum } from './checksum.ts';
import { MigrationError, schemaUpgradeCommand } from './errors.ts';
import { schemaHistoryOf } from './history.ts';
import type { MigrationSet } from './migration.ts';
import { codeReleaseOf, migrateToLatest } from './runner.ts';

/** How the database's schema compares with the code's migrations. */
export type SchemaState = 'current' | 'empty' | 'behind' | 'ahead' | 'modified';

/** The schema's state and the migrations behind it. */
export interface SchemaReport {
  readonly state: SchemaState;
  /** Migrations of the set that are applied, in set order. */
  readonly applied: readonly string[];
  /** Migrations of the set not applied yet (or interrupted part-way), in set order. */
  readonly pending: readonly string[];
  /** Applied migrations this code does not know (a newer release's). */
  readonly unknown: readonly string[];
  /** The releases of the unknown migrations, as the history recorded them (first seen first). */
  readonly unknownReleases: readonly string[];
  /** Applied migrations whose operations differ from this code's. */
  readonly modified: readonly string[];
  /**
   * Whether an applied migration was applied by code older than this (or by code that did not
   * record it): the schema was upgraded release by release, not made by this code in one go.
   */
  readonly appliedByOlderCode: boolean;
  readonly message: string;
}

/** A service must not start on this schema. */
export class SchemaNotCurrentError extends MigrationError {
  override name = 'SchemaNotCurrentError';
  readonly report: SchemaReport;
  constructor(service: string, report: SchemaReport) {
    super(service, report.message);
    this.report = report;
  }
}

const list = (ids: readonly string[]) =>
  ids.length <= 3 ? ids.join(', ') : `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more`;

/**
 * The schema was upgraded by a release two or more after this code's: this process is older
 * than the previous release of the database and must be upgraded, not started.
 */
export class SchemaTooNewError extends SchemaNotCurrentError {
  override name = 'SchemaTooNewError';
  constructor(service: string, report: SchemaReport) {
    const releases = report.unknownReleases;
    const newest = releases.at(-1);
    super(service, {
      ...report,
      message: `this is an older release than the database: the schema of service ${service} has migrations of releases ${releases.join(', ')} that this code does not know (${list(report.unknown)}), so this code is more than one release behind it; upgrade this host's code to release ${releases.at(-2) ?? newest} or newer (the database's is ${newest}) before starting it`,
    });
  }
}

/** Compares the database's history with the set; reads only, creates nothing. */
export async function checkSchema<DB>(
  database: Database<DB>,
  set: MigrationSet,
): Promise<SchemaReport> {
  const { service } = set;
  const rows = await schemaHistoryOf(database, service);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const known = new Set(set.migrations.map((m) => m.id));
  const applied: string[] = [];
  const pending: string[] = [];
  const modified: string[] = [];
  for (const migration of set.migrations) {
    const row = byId.get(migration.id);
    if (row && row.checksum !== expectedChecksum(migration.operations, row))
      modified.push(migration.id);
    if (row?.appliedAt) applied.push(migration.id);
    else pending.push(migration.id);
  }
  const unknownRows = rows.filter((row) => !known.has(row.id));
  const unknown = unknownRows.map((row) => row.id);
  const unknownReleases = [
    ...new Set(
      unknownRows.map((row) => row.release).filter((release) => !set.releases.includes(release)),
    ),
  ];
  const interrupted = rows
    .filter((row) => known.has(row.id) && !row.appliedAt)
    .map((row) => row.id);
  const upgrade = `run \`${schemaUpgradeCommand(service, database.url.redacted, set.commands)}\``;
  const codeRelease = codeReleaseOf(set);
  const appliedByOlderCode = rows.some(
    (row) => row.appliedAt !== undefined && known.has(row.id) && row.appliedBy !== codeRelease,
  );
  const report = (state: SchemaState, message: string): SchemaReport => ({
    state,
    applied,
    pending,
    unknown,
    unknownReleases,
    modified,
    appliedByOlderCode,
    message,
  });
  if (modified.length > 0) {
    return report(
      'modified',
      `the schema of service ${service} was built by migrations that differ from this code's (${list(modified)}): a released migration was edited; restore it as released and put the change in a new migration`,
    );
  }
  if (rows.length === 0 && pending.length > 0) {
    return report(
      'empty',
      `database ${database.url.redacted} has no schema for service ${service} yet; ${upgrade}`,
    );
  }
  if (pending.length > 0) {
    const part = interrupted.length > 0 ? ` (interrupted part-way: ${list(interrupted)})` : '';
    return report(
      'behind',
      `the schema of service ${service} is older than this code: ${pending.length} migration(s) pending (${list(pending)})${part}; ${upgrade} before starting it`,
    );
  }
  if (unknown.length > 0) {
    return report(
      'ahead',
      `the schema of service ${service} was upgraded by a newer release (${list(unknown)}); this release keeps working with it, since migrations only expand the schema`,
    );
  }
  const latest = applied.at(-1);
  return report(
    'current',
    `the schema of service ${service} is current${latest ? ` (latest migration ${latest})` : ''}`,
  );
}

/** How assertSchema treats a database that is not current. */
export interface AssertSchemaOptions {
  /** On an empty database, apply every migration (the embedded SQLite default). */
  readonly createIfEmpty?: boolean;
}

/**
 * Returns the report when the service may start ('current' or 'ahead'),
 * after creating the schema if empty and `createIfEmpty`; throws
 * SchemaNotCurrentError (or the runner's error) otherwise.
 */
export async function assertSchemaCurrent<DB>(
  database: Database<DB>,
  set: MigrationSet,
  options: AssertSchemaOptions = {},
): Promise<SchemaReport> {
  let report = await checkSchema(database, set);
  if (report.state === 'empty' && options.createIfEmpty) {
    const result = await migrateToLatest(database, set);
    if (result.error) throw result.error;
    report = await checkSchema(database, set);
  }
  if (report.state === 'ahead' && report.unknownReleases.length >= 2) {
    throw new SchemaTooNewError(set.service, report);
  }
  if (report.state === 'current' || report.state === 'ahead') return report;
  throw new SchemaNotCurrentError(set.service, report);
}
