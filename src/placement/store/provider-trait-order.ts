/**
 * The order of a provider's traits as the real service shows them in allocation candidates'
 * provider summaries. It sorts nothing: it reads `resource_provider_traits` joined to
 * `resource_providers` without ORDER BY and keeps the rows as the database returns them.
 * That is trait id order on SQLite and MariaDB (the index on (resource_provider_id,
 * trait_id) and InnoDB's clustered (trait_id, resource_provider_id) key are read in key
 * order), and the order the rows were stored on PostgreSQL (a sequential or bitmap heap
 * scan; stored in CPython's set order, see python-set-order.ts). Baton asks for that order
 * explicitly; docs/placement.md has the measurements and the one case it does not follow.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Capabilities } from '../../db/index.ts';

/** The sort key of the `resource_provider_traits` rows aliased `alias`. */
export function providerTraitOrder(caps: Capabilities, alias: string): RawBuilder<unknown> {
  const column = caps.storageOrderColumn ?? 'trait_id';
  return sql.ref(`${alias}.${column}`);
}

/** A number giving each row of `alias` its place in that order (for unions and JS sorts). */
export function providerTraitRank(caps: Capabilities, alias: string): RawBuilder<unknown> {
  return sql`row_number() over (order by ${providerTraitOrder(caps, alias)})`;
}
