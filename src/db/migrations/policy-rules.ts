/**
 * The policy's rules, one per kind of operation. "Existing table" means any
 * table the same migration did not create: an earlier migration's table may
 * have been created releases ago and hold many rows by now.
 */
import { capabilitiesOf } from '../capabilities.ts';
import type { Backend } from '../database-url.ts';
import type { Migration, MigrationSet } from './migration.ts';
import type { Operation } from './operations.ts';
import type { LockWarning, PolicyRule, PolicyViolation } from './policy.ts';

const BACKENDS: readonly Backend[] = ['sqlite', 'postgresql', 'mysql'];
/** Where adding a foreign key to a populated table blocks its writers. */
const FOREIGN_KEY_LOCKS = BACKENDS.filter((b) => capabilitiesOf(b).foreignKeyLocksTable);
/** Where a plain CREATE INDEX blocks writers although a non-blocking build exists. */
const INDEX_LOCKS = BACKENDS.filter((b) => capabilitiesOf(b).concurrentIndex);

const names = (backends: readonly Backend[]) =>
  backends
    .map((b) => ({ sqlite: 'SQLite', postgresql: 'PostgreSQL', mysql: 'MariaDB' })[b])
    .join(', ');

const RETIRE = 'deprecate the old one, and drop it two releases later';

interface Found {
  violations: PolicyViolation[];
  lockWarnings: LockWarning[];
}

/** The earliest release index at which `table` (or `table.column`) was deprecated. */
function deprecatedAt(set: MigrationSet, table: string, column?: string): number | undefined {
  const indexes = set.deprecations
    .filter((d) => d.table === table && (d.column === undefined || d.column === column))
    .map((d) => set.releases.indexOf(d.release))
    .filter((i) => i >= 0);
  return indexes.length > 0 ? Math.min(...indexes) : undefined;
}

function dropRule(
  set: MigrationSet,
  releaseIndex: number,
  table: string,
  column?: string,
): { rule: PolicyRule; message: string } | undefined {
  const what = column === undefined ? `table ${table}` : `column ${table}.${column}`;
  const deprecated = deprecatedAt(set, table, column);
  const release = set.releases[releaseIndex];
  if (deprecated === undefined) {
    const entry =
      column === undefined ? `table: '${table}'` : `table: '${table}', column: '${column}'`;
    return {
      rule: 'drop-not-deprecated',
      message: `dropping ${what} breaks the previous release's code, which still reads it: deprecate it first (deprecations: [{ ${entry}, release: '<release>' }]), stop using it in the next release, and drop it in the release after that`,
    };
  }
  if (releaseIndex - deprecated < 2) {
    const from = set.releases[deprecated];
    const earliest = set.releases[deprecated + 2];
    return {
      rule: 'drop-too-early',
      message: `${what} was deprecated in ${from}; dropping it in ${release} is too early, because code of ${set.releases[releaseIndex - 1] ?? from} that still reads it runs during the upgrade to ${release}: drop it in ${earliest ?? `the second release after ${from}`} or later`,
    };
  }
  return undefined;
}

/** Violations and lock warnings of a migration's operations (its release is known). */
export function operationRules(
  set: MigrationSet,
  migration: Migration,
  releaseIndex: number,
): Found {
  const found: Found = { violations: [], lockWarnings: [] };
  const created = new Set(
    migration.operations.flatMap((o) => (o.op === 'createTable' ? [o.table] : [])),
  );
  const refuse = (operation: number, rule: PolicyRule, message: string) =>
    found.violations.push({ rule, message, migration: migration.id, operation });
  const flag = (
    operation: number,
    table: string | undefined,
    backends: readonly Backend[],
    message: string,
    acknowledged: string | undefined,
    instead = '',
  ) => {
    if (backends.length === 0) return;
    found.lockWarnings.push({
      migration: migration.id,
      operation,
      table,
      backends,
      message,
      acknowledged,
    });
    if (acknowledged === undefined || acknowledged.trim() === '') {
      refuse(
        operation,
        'unacknowledged-lock',
        `${message}; ${instead}acknowledge it with acknowledgeLocks: '<why it is acceptable>' and mention it in the release notes`,
      );
    }
  };
  const ack = migration.acknowledgeLocks;

  migration.operations.forEach((operation: Operation, i) => {
    switch (operation.op) {
      case 'createTable':
        return;
      case 'addColumn': {
        const { table, column } = operation;
        const notNull = column.nullable === false || column.primaryKey === true;
        if (!created.has(table) && notNull && column.default === undefined) {
          refuse(
            i,
            'not-null-without-default',
            `adding NOT NULL column ${table}.${column.name} without a default breaks the previous release's inserts (they do not set it) and the existing rows: give it a default, or add it nullable and fill it with an online migration`,
          );
        }
        return;
      }
      case 'createIndex':
        if (!created.has(operation.table) && !operation.concurrently) {
          flag(
            i,
            operation.table,
            INDEX_LOCKS,
            `creating index ${operation.name} blocks writes to ${operation.table} while it is built on ${names(INDEX_LOCKS)}`,
            ack,
            'set concurrently: true, or ',
          );
        }
        return;
      case 'addForeignKey':
        if (!created.has(operation.table)) {
          flag(
            i,
            operation.table,
            FOREIGN_KEY_LOCKS,
            `adding a foreign key to ${operation.table} (referencing ${operation.references.table}) locks ${operation.table} against writes while every row is checked on ${names(FOREIGN_KEY_LOCKS)}`,
            ack,
          );
        }
        return;
      case 'dropColumn':
      case 'dropTable': {
        const column = operation.op === 'dropColumn' ? operation.column : undefined;
        const problem = dropRule(set, releaseIndex, operation.table, column);
        if (problem) refuse(i, problem.rule, problem.message);
        return;
      }
      case 'renameColumn': {
        const { table, from, to } = operation;
        refuse(
          i,
          'rename-column',
          `renaming ${table}.${from} to ${to} breaks the previous release's queries, which still use ${from}: add ${to} in this release, copy the data with an online migration, ${RETIRE}`,
        );
        return;
      }
      case 'alterColumn': {
        const { table, column } = operation;
        refuse(
          i,
          'alter-column',
          `changing the type, size or nullability of ${table}.${column} breaks the previous release's reads and writes of it: add a new column with the new definition, fill it with an online migration, ${RETIRE}`,
        );
        return;
      }
      case 'renameTable':
        refuse(
          i,
          'rename-table',
          `renaming table ${operation.from} to ${operation.to} breaks the previous release's queries: create ${operation.to}, copy the rows with an online migration, ${RETIRE}`,
        );
        return;
      case 'sql': {
        const backends =
          typeof operation.sql === 'string'
            ? BACKENDS
            : BACKENDS.filter(
                (b) => typeof (operation.sql as Record<Backend, string | null>)[b] === 'string',
              );
        found.lockWarnings.push({
          migration: migration.id,
          operation: i,
          backends,
          message: `raw SQL cannot be checked by the policy (reviewed: ${operation.reviewed || 'no'})`,
          acknowledged: operation.reviewed,
        });
        if (operation.reviewed.trim() === '') {
          refuse(
            i,
            'unreviewed-sql',
            'a sql operation needs reviewed: who checked that the previous release keeps working with it, and why',
          );
        }
        return;
      }
    }
  });
  return found;
}
