/**
 * `SELECT … FOR UPDATE` where a backend has row locks. SQLite has none (and no such syntax):
 * its transactions take the one write lock up front (`inTransaction`), which excludes other
 * writers already.
 */
import type { Capabilities } from '../../db/index.ts';

export function forUpdate<Q extends { forUpdate(): Q }>(query: Q, caps: Capabilities): Q {
  return caps.singleWriter ? query : query.forUpdate();
}
