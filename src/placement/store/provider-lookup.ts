/** Finding a resource provider by uuid: the first step of most handlers. */
import type { Kysely, Selectable } from 'kysely';
import type { PlacementTables, ResourceProvidersTable } from './tables.ts';

export type ProviderRow = Selectable<ResourceProvidersTable>;

/** The provider's row, or undefined when no provider has this uuid. */
export async function findProvider(
  db: Kysely<PlacementTables>,
  uuid: string,
): Promise<ProviderRow | undefined> {
  const row = await db
    .selectFrom('resource_providers')
    // Named columns: a column a later release adds changes nothing here (and the statement
    // can stay prepared, see db/pg-prepared.ts).
    .select([
      'id',
      'uuid',
      'name',
      'generation',
      'root_provider_id',
      'parent_provider_id',
      'created_at',
      'updated_at',
    ])
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    ...row,
    id: Number(row.id),
    generation: Number(row.generation),
    root_provider_id: row.root_provider_id === null ? null : Number(row.root_provider_id),
    parent_provider_id: row.parent_provider_id === null ? null : Number(row.parent_provider_id),
  };
}
