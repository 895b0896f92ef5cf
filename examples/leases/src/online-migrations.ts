/**
 * The online data migrations: they move data while every process keeps serving, in batches,
 * once the schema has grown. The registry ends with the toolkit's own
 * `update_to_latest_versions`, which rewrites every row at the Lease version of this code.
 */
import { createOnlineMigrationRegistry, type OnlineMigration } from 'baton/db';
import { Lease } from './lease.ts';

/**
 * Release 2: the rows release 1 wrote have no pool; they were all in the one pool it knew,
 * `default`. Idempotent: it selects by what still needs doing.
 */
const fillLeasePool: OnlineMigration = {
  name: 'fill_lease_pool',
  description: "gives the leases release 1 wrote the pool they were in, 'default'",
  async run({ db }, maxCount) {
    const waiting = db.selectFrom('leases').where('pool', 'is', null);
    const { n } = await waiting.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const ids = await waiting.select('id').orderBy('id').limit(maxCount).execute();
    if (ids.length > 0) {
      await db
        .updateTable('leases')
        .set({ pool: 'default', version: '1.1' })
        .where(
          'id',
          'in',
          ids.map((row) => row.id),
        )
        .where('pool', 'is', null)
        .execute();
    }
    return { total: Number(n), migrated: ids.length };
  },
};

export const ONLINE_MIGRATIONS = createOnlineMigrationRegistry({
  service: 'leases',
  migrations: [fillLeasePool],
  objectTables: [{ table: 'leases', type: Lease }],
});
