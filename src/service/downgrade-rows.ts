/**
 * `baton db downgrade-rows --to RELEASE`: the way back to an older release once newer code has
 * written rows at object versions the older one cannot read (docs/rehearsal.md, "Going
 * back"). It runs with the newer code, which can read those rows, and rewrites them at the
 * older release's versions (db/object-versions/rewrite-down.ts).
 *
 * It refuses while a live process would write newer rows again behind it: every live process
 * of the service must write at the older release's versions or below, that is be pinned to
 * it (its caps release, recorded in the services table) or run it. Rows of object types the
 * older release does not know at all are left where they are and named: it never reads them,
 * but they may matter to it (the service's docs say how).
 */
import {
  type Database,
  type LivenessOptions,
  listServices,
  type RewriteDownResult,
  rewriteRowsDown,
  type ServiceRecord,
} from '../db/index.ts';
import { codeServiceVersion, type ReleaseMapping, ReleasePin } from '../releases/index.ts';
import type { ServiceDefinition } from './service-definition.ts';

/** The service version of a release of the mapping (the code's own for `master`). */
function serviceVersionOf(mapping: ReleaseMapping, release: string): number | undefined {
  return release === 'master' ? codeServiceVersion(mapping) : mapping[release]?.serviceVersion;
}

/** The live processes that write at versions above `release`'s: while one runs, refuse. */
export async function processesWritingAbove(
  db: Database,
  service: ServiceDefinition,
  release: string,
  liveness: LivenessOptions = {},
): Promise<ServiceRecord[]> {
  const target = serviceVersionOf(service.releases, release) ?? 0;
  const rows = await listServices(db, liveness);
  return rows.filter((row) => {
    if (!row.live || !service.binaries.includes(row.binary)) return false;
    const writes =
      row.capsRelease === undefined
        ? row.version
        : (serviceVersionOf(service.releases, row.capsRelease) ?? row.version);
    return writes > target;
  });
}

/** What downgradeRows did. */
export interface DowngradeRowsOutcome {
  readonly result: RewriteDownResult;
  /** Object types `release` does not know whose tables hold rows, with their counts. */
  readonly unknownToRelease: readonly {
    readonly type: string;
    readonly table: string;
    readonly count: number;
  }[];
}

/** Rewrites at most `maxCount` rows down to `release`'s versions (the caller checked the gate). */
export async function downgradeRows(
  db: Database,
  service: ServiceDefinition,
  release: string,
  maxCount: number,
): Promise<DowngradeRowsOutcome> {
  const pin = ReleasePin.resolve(service.releases, release);
  const objects = service.releases[release]?.objects ?? {};
  const tables = service.versionedTables ?? [];
  const known = tables.filter((t) => objects[t.type.name] !== undefined);
  const result = await rewriteRowsDown(db, known, pin, maxCount);
  const unknownToRelease = [];
  for (const t of tables.filter((t) => objects[t.type.name] === undefined)) {
    const row = await db.kysely
      .selectFrom(t.table as never)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const count = Number((row as { n?: unknown } | undefined)?.n ?? 0);
    if (count > 0) unknownToRelease.push({ type: t.type.name, table: t.table, count });
  }
  return { result, unknownToRelease };
}
