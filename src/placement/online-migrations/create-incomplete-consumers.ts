/**
 * Seed 002's online migration: allocations written before consumer records
 * existed (microversion < 1.8, or imported data) get a consumer record, with
 * the configured `incomplete_consumer_project_id` / `incomplete_consumer_user_id`
 * standing in for the unknown project and user. Idempotent: it only looks at
 * allocations whose consumer has no record. The ids come from the same
 * PlacementConfig settings that PUT /allocations below 1.8 uses.
 */
import type { Kysely } from 'kysely';
import type { OnlineMigration } from '../../db/index.ts';
import { INCOMPLETE_CONSUMER_DEFAULTS, type PlacementConfig } from '../config.ts';
import { incompleteConsumerOwner } from '../store/projects-users.ts';

/** The two settings of PlacementConfig this migration reads. */
export type IncompleteConsumerSettings = Pick<
  PlacementConfig,
  'incompleteConsumerProjectId' | 'incompleteConsumerUserId'
>;

const DEFAULT_SETTINGS: IncompleteConsumerSettings = {
  incompleteConsumerProjectId: INCOMPLETE_CONSUMER_DEFAULTS.projectId,
  incompleteConsumerUserId: INCOMPLETE_CONSUMER_DEFAULTS.userId,
};

// biome-ignore lint/suspicious/noExplicitAny: placement's tables
type Db = Kysely<any>;

/** The id of the row with this external id, created when missing. */
async function externalIdRow(
  db: Db,
  table: 'projects' | 'users',
  externalId: string,
): Promise<number> {
  const found = await db
    .selectFrom(table)
    .select('id')
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  if (found) return Number(found.id);
  await db.insertInto(table).values({ external_id: externalId, created_at: new Date() }).execute();
  const created = await db
    .selectFrom(table)
    .select('id')
    .where('external_id', '=', externalId)
    .executeTakeFirstOrThrow();
  return Number(created.id);
}

function consumersWithoutRecord(db: Db) {
  return db
    .selectFrom('allocations as a')
    .leftJoin('consumers as c', 'c.uuid', 'a.consumer_id')
    .where('c.id', 'is', null);
}

export function createIncompleteConsumers(
  settings: IncompleteConsumerSettings = DEFAULT_SETTINGS,
): OnlineMigration {
  const owner = incompleteConsumerOwner(settings);
  return {
    name: 'create_incomplete_consumers',
    description: 'create consumer records for allocations that have none (seed 002)',
    async run(ctx, maxCount) {
      const db = ctx.db as Db;
      const counted = await consumersWithoutRecord(db)
        .select((eb) => eb.fn.count<number>('a.consumer_id').distinct().as('n'))
        .executeTakeFirstOrThrow();
      const total = Number(counted.n);
      if (total === 0) return { total, migrated: 0 };
      const batch = await consumersWithoutRecord(db)
        .select('a.consumer_id')
        .distinct()
        .orderBy('a.consumer_id')
        .limit(maxCount)
        .execute();
      const projectId = await externalIdRow(db, 'projects', owner.projectExternalId);
      const userId = await externalIdRow(db, 'users', owner.userExternalId);
      const now = new Date();
      await db
        .insertInto('consumers')
        .values(
          batch.map((row) => ({
            uuid: row.consumer_id,
            project_id: projectId,
            user_id: userId,
            generation: 0,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
      return { total, migrated: batch.length };
    },
  };
}
