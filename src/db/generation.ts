/**
 * The optimistic-concurrency step: `UPDATE t SET generation = g + 1 … WHERE
 * id = ? AND generation = g`. No row updated means another writer won; the
 * caller's transaction must then roll back (ConcurrentUpdateError does that
 * when thrown inside `inTransaction`).
 */
import type { Kysely } from 'kysely';
import { ConcurrentUpdateError } from './errors.ts';

/**
 * Which row's generation to move, and from which value: the compare-and-swap bumpGeneration makes.
 */
export interface GenerationUpdate {
  readonly table: string;
  readonly id: string | number;
  /** The generation the writer read. */
  readonly expected: number;
  readonly idColumn?: string;
  readonly generationColumn?: string;
  /** Other columns to set in the same statement. */
  readonly set?: Readonly<Record<string, unknown>>;
}

/** Bumps the generation if it is still `expected`; returns the new generation or throws. */
export async function bumpGeneration<DB>(
  executor: Kysely<DB>,
  update: GenerationUpdate,
): Promise<number> {
  const idColumn = update.idColumn ?? 'id';
  const generationColumn = update.generationColumn ?? 'generation';
  // biome-ignore lint/suspicious/noExplicitAny: table and columns are chosen at run time
  const db = executor as unknown as Kysely<any>;
  const result = await db
    .updateTable(update.table)
    .set({ ...update.set, [generationColumn]: update.expected + 1 })
    .where(idColumn, '=', update.id)
    .where(generationColumn, '=', update.expected)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    throw new ConcurrentUpdateError(update.table, update.id, update.expected);
  }
  return update.expected + 1;
}
