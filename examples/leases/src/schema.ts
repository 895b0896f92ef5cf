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
    /** The Lease object version the row is written at. */
    version: string;
  };
}

/** The database as typed queries on the leases tables (the toolkit's handle is untyped). */
export const leasesQueries = (db: Database) => db.kysely as unknown as Kysely<LeasesTables>;

export const MIGRATIONS: MigrationSet = {
  service: 'leases',
  releases: ['1'],
  deprecations: [],
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
  ],
};
