/**
 * Consumer types (microversion 1.38): names like INSTANCE or MIGRATION, created on first use.
 * A consumer without a type shows as `unknown`.
 */
import type { Database } from '../../db/index.ts';
import { ensureKeyedRow, keyOfRow } from './external-ids.ts';
import type { PlacementTables } from './tables.ts';

/** What GET shows for a consumer whose type was never set (written before 1.38). */
export const UNKNOWN_CONSUMER_TYPE = 'unknown';

export function ensureConsumerType(
  database: Database<PlacementTables>,
  name: string,
): Promise<number> {
  return ensureKeyedRow(database, 'consumer_types', name);
}

/** The type's name for a consumer row's `consumer_type_id`. */
export async function consumerTypeName(
  database: Database<PlacementTables>,
  id: number | null,
): Promise<string> {
  if (id === null) return UNKNOWN_CONSUMER_TYPE;
  return (await keyOfRow(database, 'consumer_types', id)) ?? UNKNOWN_CONSUMER_TYPE;
}
