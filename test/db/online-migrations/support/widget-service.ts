/**
 * A fake service for the online-migration and upgrade-check tests: a
 * `widgets` table with a `version` column and a Widget object type with two
 * versions. Widget 1.1 added `meta`, replacing the deprecated `extra`
 * (the rolling-upgrade doc's example), so bringing a row to 1.1 moves data, not just the
 * version stamp.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../../src/db/index.ts';
import type { OnlineMigration } from '../../../../src/db/online-migrations/index.ts';
import { defineObjectType, f } from '../../../../src/objects/index.ts';

export const Widget = defineObjectType({
  name: 'Widget',
  namespace: { project: 'test', serial: 'test_object' },
  fields: {
    id: f.integer(),
    colour: f.string({ nullable: true }),
    extra: f.flexibleDict({ nullable: true }),
    meta: f.flexibleDict({ nullable: true }),
  },
  history: [
    { version: '1.0', note: 'Initial version' },
    {
      version: '1.1',
      note: "Add 'meta', replacing 'extra'",
      added: ['meta'],
      upgrade(widget) {
        widget.assign('meta', widget.peek('extra') ?? {});
        widget.assign('extra', null);
      },
      downgrade(widget) {
        widget.assign('extra', widget.peek('meta') ?? {});
      },
    },
  ],
});

export interface WidgetRow {
  id: number;
  version: string | null;
  colour: string | null;
  extra: string | null;
  meta: string | null;
}

// biome-ignore lint/suspicious/noExplicitAny: test tables are named at run time
export const anyKysely = (db: Database) => db.kysely as unknown as Kysely<any>;

export async function createWidgetTable(db: Database, table: string): Promise<void> {
  await anyKysely(db)
    .schema.createTable(table)
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'varchar(15)')
    .addColumn('colour', 'varchar(32)')
    .addColumn('extra', 'text')
    .addColumn('meta', 'text')
    .execute();
}

/** Replaces the table's rows: one per given version, `extra` = {"n": id}, no colour. */
export async function seedWidgets(
  db: Database,
  table: string,
  versions: readonly (string | null)[],
): Promise<void> {
  await anyKysely(db).deleteFrom(table).execute();
  if (versions.length === 0) return;
  await anyKysely(db)
    .insertInto(table)
    .values(
      versions.map((version, id) => ({
        id,
        version,
        colour: null,
        extra: version === '1.1' ? null : JSON.stringify({ n: id }),
        meta: version === '1.1' ? JSON.stringify({ n: id }) : null,
      })),
    )
    .execute();
}

export async function widgetRows(db: Database, table: string): Promise<WidgetRow[]> {
  return (await anyKysely(db).selectFrom(table).selectAll().orderBy('id').execute()) as WidgetRow[];
}

/**
 * A service's own migration: give every widget without a colour the colour
 * 'grey'. Counted and selected by what still needs doing, so it is idempotent.
 */
export function backfillColour(
  table: string,
  extra: Partial<OnlineMigration> & { failOnCall?: number } = {},
): OnlineMigration & { calls: number } {
  const migration = {
    name: 'backfill_colour',
    description: 'Give every widget without a colour the colour grey',
    calls: 0,
    ...extra,
    async run(ctx: Parameters<OnlineMigration['run']>[0], maxCount: number) {
      migration.calls++;
      const counted = await ctx.db
        .selectFrom(table)
        .where('colour', 'is', null)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const total = Number(counted.n);
      const ids = (
        await ctx.db
          .selectFrom(table)
          .select('id')
          .where('colour', 'is', null)
          .orderBy('id')
          .limit(maxCount)
          .execute()
      ).map((row) => row.id);
      if (ids.length === 0) return { total, migrated: 0 };
      const result = await ctx.db
        .updateTable(table)
        .set({ colour: 'grey' })
        .where('id', 'in', ids)
        .where('colour', 'is', null)
        .executeTakeFirst();
      // Fails after writing, inside the batch: the batch must roll back.
      if (extra.failOnCall === migration.calls) throw new Error('the disk is on fire');
      return { total, migrated: Number(result.numUpdatedRows) };
    },
  };
  return migration;
}
