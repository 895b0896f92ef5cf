/**
 * The consumer-generation spec's online migration: allocations written before consumer records
 * existed (microversion < 1.8, or imported data) get a consumer record, with
 * the configured `incomplete_consumer_project_id` / `incomplete_consumer_user_id`
 * standing in for the unknown project and user. Idempotent: it only looks at
 * allocations whose consumer has no record. The ids come from the same
 * PlacementConfig settings that PUT /allocations below 1.8 uses.
 *
 * Several runners may run it at once (two operators, or a runner and PUT /allocations):
 * the project, user and consumer rows are made with the store's race-safe inserts, so every
 * missing consumer is created once and no runner fails on another's rows.
 */
import type { Kysely } from 'kysely';
import type { OnlineMigration } from '../../db/index.ts';
import { INCOMPLETE_CONSUMER_DEFAULTS, type PlacementConfig } from '../config.ts';
import { insertConsumer } from '../store/consumers.ts';
import { ensureOwnerWithin, incompleteConsumerOwner } from '../store/projects-users.ts';

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
    description:
      'create consumer records for allocations that have none (written before consumer generations)',
    async run(ctx, maxCount) {
      const db = ctx.db as Db;
      const counted = await consumersWithoutRecord(db)
        .select((eb) => eb.fn.count<number>('a.consumer_id').distinct().as('n'))
        .executeTakeFirstOrThrow();
      const total = Number(counted.n);
      if (total === 0) return { total, migrated: 0 };
      const { projectId, userId } = await ensureOwnerWithin(db, ctx.caps, owner);
      // Another runner may create this batch's consumers first: the insert waits for its
      // commit, then skips them. Select again until this call creates some, or none are left.
      let migrated = 0;
      let createdByOthers = 0;
      while (migrated === 0) {
        const batch = await consumersWithoutRecord(db)
          .select('a.consumer_id')
          .distinct()
          .orderBy('a.consumer_id')
          .limit(maxCount)
          .execute();
        if (batch.length === 0) return { total: 0, migrated: 0 };
        // One row at a time: only a single-row insert tells on every backend whether it
        // created the row or skipped it (migrated counts this runner's rows only).
        for (const row of batch) {
          const created = await insertConsumer(db, ctx.caps, {
            uuid: row.consumer_id,
            projectId,
            userId,
            consumerTypeId: null,
            generation: 0,
          });
          if (created) migrated++;
          else createdByOthers++;
        }
      }
      return { total: Math.max(migrated, total - createdByOthers), migrated };
    },
  };
}
