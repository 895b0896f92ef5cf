/**
 * Names compared byte for byte on MariaDB, as PostgreSQL and SQLite compare them: with the
 * server's default collation (utf8mb4_general_ci, PAD SPACE) `abc`, `ABC` and `abc ` were one
 * name there (a 409 on create, and a lookup by one found the other) and different names on
 * the other databases. utf8mb4_nopad_bin keeps case and trailing spaces apart.
 *
 * Safe for the previous release's code (the model change policy's question): the columns
 * keep their type, size and nullability; the unique constraints only get less strict (every
 * set of rows that was unique still is), and the old code already ran with byte-for-byte
 * comparison on PostgreSQL and SQLite. MariaDB rebuilds each table while it changes the
 * column (a write lock for the copy): these tables hold names, one row per provider, class,
 * trait, project or user, so the copy is short.
 */
import {
  exactCollationOnMariadb,
  type Migration,
  type Operation,
} from '../../db/migrations/index.ts';

const REVIEWED =
  'Collation only (type, size and NULL unchanged), on MariaDB only; unique constraints get less strict, never stricter; the previous release already compares names byte for byte on PostgreSQL and SQLite (issue 16, docs/security.md).';

const exactOnMariadb = (
  table: string,
  column: string,
  length: number,
  nullable: boolean,
): Operation => exactCollationOnMariadb(table, column, length, nullable, REVIEWED);

export const exactNameCollation: Migration = {
  id: '0002_exact_name_collation',
  release: '2026.1',
  description: 'Names and external ids compared byte for byte on MariaDB (case, trailing spaces)',
  operations: [
    exactOnMariadb('resource_providers', 'name', 200, true),
    exactOnMariadb('resource_classes', 'name', 255, false),
    exactOnMariadb('traits', 'name', 255, false),
    exactOnMariadb('consumer_types', 'name', 255, false),
    exactOnMariadb('projects', 'external_id', 255, false),
    exactOnMariadb('users', 'external_id', 255, false),
  ],
  acknowledgeLocks:
    'MariaDB copies resource_providers, resource_classes, traits, consumer_types, projects and users while changing the collation: small tables of names, a write lock of seconds at most.',
};
