/**
 * What the leases load saw acknowledged, and the data check that holds the database to it
 * after a rehearsal of the example leases service (examples/leases): every lease created and
 * not released is there with its resource, holder and pool; every released one is gone; every
 * row is at the Lease version of the new release (the online migrations ran to the end). Pure.
 */
import type { DataCheckResult } from './data-check.ts';
import type { Written } from './ledger.ts';

/** A lease the load created, as it expects to find it. */
export interface ExpectedLease {
  readonly uuid: string;
  readonly resource: Written<string>;
  readonly holder: Written<string>;
  /** The pool it was created in or last moved to (a lease created at 1.0 is in `default`). */
  pool: Written<string>;
  /** Released (DELETE answered 204): it must be gone. */
  released: boolean;
}

/** A row of the `leases` table. */
export interface LeaseRow {
  readonly uuid: string;
  readonly resource: string;
  readonly holder: string;
  readonly pool: string | null;
  readonly version: string;
}

/** The leases the load saw acknowledged, by uuid. */
export class LeaseLedger {
  readonly leases = new Map<string, ExpectedLease>();

  created(uuid: string, resource: string, holder: string, pool: string, at: string): void {
    this.leases.set(uuid, {
      uuid,
      resource: { value: resource, microversion: at },
      holder: { value: holder, microversion: at },
      pool: { value: pool, microversion: at },
      released: false,
    });
  }

  moved(uuid: string, pool: string, at: string): void {
    const lease = this.leases.get(uuid);
    if (lease !== undefined) lease.pool = { value: pool, microversion: at };
  }

  released(uuid: string): void {
    const lease = this.leases.get(uuid);
    if (lease !== undefined) lease.released = true;
  }
}

/** The rows held to the ledger; `latestVersion` is the Lease version every row must be at. */
export function checkLeases(
  ledger: LeaseLedger,
  rows: readonly LeaseRow[],
  latestVersion: string,
): DataCheckResult {
  const problems: string[] = [];
  const compared: Record<string, number> = {};
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  let released = 0;
  for (const expected of ledger.leases.values()) {
    const row = byUuid.get(expected.uuid);
    if (expected.released) {
      released++;
      if (row !== undefined)
        problems.push(`lease ${expected.uuid} was released but is still there`);
      continue;
    }
    if (row === undefined) {
      problems.push(`lease ${expected.uuid} was created but is missing`);
      continue;
    }
    for (const field of ['resource', 'holder', 'pool'] as const) {
      const written = expected[field];
      const label = `${field} @${written.microversion}`;
      compared[label] = (compared[label] ?? 0) + 1;
      if (row[field] !== written.value) {
        problems.push(
          `lease ${expected.uuid}: ${field} is ${JSON.stringify(row[field])}, the acknowledged write (at ${written.microversion}) was ${JSON.stringify(written.value)}`,
        );
      }
    }
  }
  for (const row of rows) {
    if (row.version !== latestVersion) {
      problems.push(`lease ${row.uuid}: row at Lease ${row.version}, not ${latestVersion}`);
    }
  }
  const live = ledger.leases.size - released;
  return {
    summary: `${ledger.leases.size} leases acknowledged (${released} released, ${live} held); ${rows.length} in the database`,
    compared,
    problems,
  };
}
