/**
 * Node, port and portgroup names compared byte for byte on MariaDB, as on PostgreSQL and
 * SQLite: with the server's default collation `Node-A` and `node-a` were one name there (the
 * second create a 409, a lookup by one found the other) and two names elsewhere. The real
 * Ironic 21.4 behaves the same per database (its MariaDB tables have the server's collation);
 * Baton decides for exact names everywhere, the meaning its API gives them (case-sensitive
 * logical names) and PostgreSQL's (docs/security.md).
 *
 * Safe for the previous release's code (the model change policy's question): the columns keep
 * their type, size and nullability; the unique constraints only get less strict. MariaDB
 * rebuilds each table while it changes the column (a write lock for the copy).
 */
import { exactCollationOnMariadb, type Migration } from '../../db/migrations/index.ts';

const REVIEWED =
  'Collation only (type, size and NULL unchanged), on MariaDB only; unique constraints get less strict, never stricter; the previous release already compares names byte for byte on PostgreSQL and SQLite (issue 16, docs/security.md).';

export const exactNameCollation: Migration = {
  id: '0003_exact_name_collation',
  release: 'antelope',
  description: 'Node, port and portgroup names compared byte for byte on MariaDB (case)',
  operations: [
    exactCollationOnMariadb('nodes', 'name', 255, true, REVIEWED),
    exactCollationOnMariadb('ports', 'name', 255, true, REVIEWED),
    exactCollationOnMariadb('portgroups', 'name', 255, true, REVIEWED),
  ],
  acknowledgeLocks:
    'MariaDB copies nodes, ports and portgroups while changing the collation: a write lock for the length of the copy (seconds for thousands of nodes), taken once, during the upgrade to antelope.',
};
