/**
 * The operator command that forgets services that stopped without
 * deregistering. Not needed for correctness (dead rows never count), only to
 * keep listings short. A row is deleted only if it is still the dead row that
 * was read, so a service that heartbeats meanwhile keeps its row.
 */
import type { Database } from '../connect.ts';
import { type ServiceRecord, serviceRecord } from './list-services.ts';
import { type Clock, checkSeconds } from './liveness.ts';
import { ensureServicesTable, SERVICES_TABLE, servicesKysely } from './services-table.ts';

/** Which rows removeDeadServices takes out. */
export interface RemoveDeadOptions {
  /** A service not seen for this many seconds is dead. */
  readonly deadAfterSeconds: number;
  readonly clock?: Clock;
}

/** Deletes the dead services; returns the ones deleted. */
export async function removeDeadServices(
  db: Database,
  options: RemoveDeadOptions,
): Promise<ServiceRecord[]> {
  checkSeconds('deadAfterSeconds', options.deadAfterSeconds);
  const since = (options.clock ?? Date.now)() - options.deadAfterSeconds * 1000;
  await ensureServicesTable(db);
  const kysely = servicesKysely(db);
  const dead = await kysely
    .selectFrom(SERVICES_TABLE)
    .selectAll()
    .where('last_seen', '<', since)
    .orderBy('binary')
    .orderBy('host')
    .execute();
  const removed: ServiceRecord[] = [];
  for (const row of dead) {
    const result = await kysely
      .deleteFrom(SERVICES_TABLE)
      .where('id', '=', row.id)
      .where('last_seen', '=', row.last_seen)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 1) removed.push(serviceRecord(row, since));
  }
  return removed;
}
