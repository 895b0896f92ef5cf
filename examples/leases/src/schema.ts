/**
 * The database schema, as migrations the toolkit applies in order and checks against its
 * change policy: during a rolling upgrade the schema may only grow (expand), because the
 * previous release still reads and writes it.
 */
import type { Database, MigrationSet } from 'baton/db';
import type { Kysely } from 'kysely';

/** The tables as the queries see them (kysely types). */
export interface LeasesTables {
  leases: {
    id: number;
    uuid: string;
    resource: string;
    holder: string;
    /** Release 2; NULL in the rows release 1 wrote, until the online migration fills it. */
    pool: string | null;
    /** The Lease object version the row is written at. */
    version: string;
  };
}

/** The database as typed queries on the leases tables (the toolkit's handle is untyped). */
export const leasesQueries = (db: Database) => db.kysely as unknown as Kysely<LeasesTables>;

export const MIGRATIONS: MigrationSet = {
  service: 'leases',
  releases: ['1', '2'],
  deprecations: [],
  // What the toolkit's messages tell the operator to run: this example's commands.
  commands: {
    upgrade: 'node --import tsx examples/leases/src/manage.ts db-upgrade --db {db}',
    onlineMigrations: 'node --import tsx examples/leases/src/manage.ts online-migrations --db URL',
  },
  migrations: [
    {
      id: '0001_create_leases',
      release: '1',
      description: 'the leases table',
      operations: [
        {
          op: 'createTable',
          table: 'leases',
          columns: [
            { name: 'id', type: 'integer', primaryKey: true, autoIncrement: true },
            { name: 'uuid', type: 'string(36)', nullable: false },
            { name: 'resource', type: 'string(255)', nullable: false },
            { name: 'holder', type: 'string(255)', nullable: false },
            { name: 'version', type: 'string(15)', nullable: false },
          ],
          unique: [{ name: 'leases_uuid_key', columns: ['uuid'] }],
        },
      ],
    },
    {
      // Expand: a new nullable column. Release 1 neither reads nor writes it, so it runs
      // at the start of the upgrade (step 0), while release 1 serves.
      id: '0002_add_lease_pool',
      release: '2',
      description: "a lease's pool",
      operations: [
        { op: 'addColumn', table: 'leases', column: { name: 'pool', type: 'string(255)' } },
      ],
    },
    {
      // The contract step of release 2: it needs every row to have a pool (listing a pool's
      // leases by an index that half the rows are missing from would be wrong), so it waits
      // for the online migration `fill_lease_pool`. `db-upgrade` applies what comes before it
      // and stops here until the migration is done; the last step of the upgrade runs it.
      id: '0003_index_leases_by_pool',
      release: '2',
      description: "an index of each pool's leases",
      operations: [
        {
          op: 'createIndex',
          table: 'leases',
          name: 'leases_pool_idx',
          columns: ['pool', 'id'],
          // PostgreSQL builds it without holding the writers back.
          concurrently: true,
        },
      ],
      blockedBy: {
        onlineMigration: 'fill_lease_pool',
        remaining: async (db) =>
          Number(
            (
              await db
                .selectFrom('leases')
                .select((eb) => eb.fn.countAll().as('n'))
                .where('pool', 'is', null)
                .executeTakeFirstOrThrow()
            ).n,
          ),
      },
    },
  ],
};
