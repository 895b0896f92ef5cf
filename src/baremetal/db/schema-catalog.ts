/**
 * The columns of each bare metal table and whether they may be NULL, read from the migrations
 * (the one definition of the schema): which sort keys are valid, and where a keyset page must
 * place NULLs.
 */
import type { MigrationSet } from '../../db/migrations/index.ts';
import { BAREMETAL_MIGRATIONS } from '../migrations/index.ts';

export type TableColumns = ReadonlyMap<string, { readonly nullable: boolean }>;

export function columnCatalog(set: MigrationSet): ReadonlyMap<string, TableColumns> {
  const tables = new Map<string, Map<string, { nullable: boolean }>>();
  for (const migration of set.migrations) {
    for (const operation of migration.operations) {
      if (operation.op === 'createTable') {
        const columns = new Map<string, { nullable: boolean }>();
        for (const column of operation.columns) {
          const key = column.primaryKey === true || operation.primaryKey?.includes(column.name);
          columns.set(column.name, { nullable: !key && column.nullable !== false });
        }
        tables.set(operation.table, columns);
      } else if (operation.op === 'addColumn') {
        tables
          .get(operation.table)
          ?.set(operation.column.name, { nullable: operation.column.nullable !== false });
      }
    }
  }
  return tables;
}

const CATALOG = columnCatalog(BAREMETAL_MIGRATIONS);

/** The columns of a bare metal table. */
export function columnsOf(table: string): TableColumns {
  const columns = CATALOG.get(table);
  if (columns === undefined) throw new RangeError(`no bare metal table '${table}'`);
  return columns;
}
