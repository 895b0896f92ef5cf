/**
 * What differs between the backends, in one place, as flags. Code asks
 * `caps.transactionalDdl`, never `backend === 'mysql'`; outside `src/db` no code names a
 * backend at all (test/db/capabilities.test.ts greps for it). Each flag says why it exists.
 */
import type { Backend } from './database-url.ts';

export interface Capabilities {
  readonly backend: Backend;
  /** DDL inside a transaction is rolled back with it (not in MySQL/MariaDB). */
  readonly transactionalDdl: boolean;
  /** `INSERT/UPDATE … RETURNING`. */
  readonly returning: boolean;
  /** `CREATE INDEX CONCURRENTLY` exists (and must run outside a transaction). */
  readonly concurrentIndex: boolean;
  /** Adding a foreign key to an existing table locks it against writes. */
  readonly foreignKeyLocksTable: boolean;
  /** How processes exclude each other (migrations): an advisory lock, or a lock row in a table. */
  readonly lockKind: 'advisory' | 'named' | 'table';
  /**
   * Writers are serialized by the engine (SQLite): transactions take the write lock up front,
   * so reads need no `SELECT … FOR UPDATE` (which SQLite does not have).
   */
  readonly singleWriter: boolean;
  /** `ALTER TABLE … DROP COLUMN` is supported in place. */
  readonly dropColumn: boolean;
  /** `WITH x AS (DELETE …) INSERT …`: several writes in one statement (one round trip). */
  readonly writableCte: boolean;
  /**
   * How an insert skips a row whose unique key is taken (insert-or-ignore.ts): `on-conflict`
   * is `ON CONFLICT (key) DO NOTHING` (PostgreSQL, SQLite); MySQL/MariaDB lack it and use
   * `ON DUPLICATE KEY UPDATE key = key`.
   */
  readonly skipDuplicate: 'on-conflict' | 'on-duplicate-key';
  /**
   * An explicit 0 written to an AUTO_INCREMENT column means "the next id" (MySQL/MariaDB)
   * unless the session sets NO_AUTO_VALUE_ON_ZERO; rows with fixed ids that include 0 (the
   * standard resource class VCPU) need it set (explicit-ids.ts).
   */
  readonly zeroIdMeansNextId: boolean;
  /**
   * Many rows are best read as one row of `string_agg` texts: the pg driver's per-field
   * decoding costs more than splitting strings, `string_agg` has no length cap (MySQL's
   * GROUP_CONCAT cuts at group_concat_max_len) and float8 prints shortest-exact, so doubles
   * read back unchanged (SQLite prints 15 digits).
   */
  readonly packRowsInText: boolean;
  /**
   * The column that orders a table's rows as they were stored (PostgreSQL's heap: `ctid`),
   * the order a query without ORDER BY meets them in sequential and bitmap scans; undefined
   * where such a query reads in an index's key order (InnoDB's clustered key, SQLite's
   * covering indexes). A reference service that leaves an order to the database shows it.
   */
  readonly storageOrderColumn: 'ctid' | undefined;
}

const CAPABILITIES: Record<Backend, Capabilities> = {
  sqlite: {
    backend: 'sqlite',
    transactionalDdl: true,
    returning: true,
    concurrentIndex: false,
    foreignKeyLocksTable: false,
    lockKind: 'table',
    singleWriter: true,
    dropColumn: true,
    writableCte: false,
    skipDuplicate: 'on-conflict',
    zeroIdMeansNextId: false,
    packRowsInText: false,
    storageOrderColumn: undefined,
  },
  postgresql: {
    backend: 'postgresql',
    transactionalDdl: true,
    returning: true,
    concurrentIndex: true,
    foreignKeyLocksTable: true,
    lockKind: 'advisory',
    singleWriter: false,
    dropColumn: true,
    writableCte: true,
    skipDuplicate: 'on-conflict',
    zeroIdMeansNextId: false,
    packRowsInText: true,
    storageOrderColumn: 'ctid',
  },
  mysql: {
    backend: 'mysql',
    transactionalDdl: false,
    returning: false,
    concurrentIndex: false,
    foreignKeyLocksTable: true, // ADD FOREIGN KEY needs ALGORITHM=COPY with checks on
    lockKind: 'named',
    singleWriter: false,
    dropColumn: true,
    writableCte: false,
    skipDuplicate: 'on-duplicate-key',
    zeroIdMeansNextId: true,
    packRowsInText: false,
    storageOrderColumn: undefined,
  },
};

export function capabilitiesOf(backend: Backend): Capabilities {
  return CAPABILITIES[backend];
}
