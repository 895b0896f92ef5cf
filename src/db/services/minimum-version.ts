/**
 * The service-version questions the service-version spec asks of the table: what is the
 * oldest version a binary still runs, and has every instance of it reached
 * version n. Only live services count.
 */
import type { Database } from '../connect.ts';
import { type LivenessOptions, liveSince } from './liveness.ts';
import { ensureServicesTable, SERVICES_TABLE, servicesKysely } from './services-table.ts';

/** The lowest version among live services of `binary`; undefined when none is live. */
export async function minimumVersion(
  db: Database,
  binary: string,
  options: LivenessOptions = {},
): Promise<number | undefined> {
  const since = liveSince(options);
  await ensureServicesTable(db);
  const row = await servicesKysely(db)
    .selectFrom(SERVICES_TABLE)
    .select((eb) => eb.fn.min('version').as('minimum'))
    .where('binary', '=', binary)
    .where('last_seen', '>=', since)
    .executeTakeFirst();
  const minimum = row?.minimum;
  return minimum === null || minimum === undefined ? undefined : Number(minimum);
}

/**
 * Whether every live service of `binary` runs version `n` or newer. True when
 * none is live: no running code of that binary can be confused by what the
 * caller is about to do (this is what lets online migrations run on a fresh
 * install, before any service started).
 */
export async function allAtLeast(
  db: Database,
  binary: string,
  n: number,
  options: LivenessOptions = {},
): Promise<boolean> {
  const minimum = await minimumVersion(db, binary, options);
  return minimum === undefined || minimum >= n;
}
