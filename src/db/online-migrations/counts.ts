/** The count options of a run, validated (the CLI turns the errors into usage messages). */
import { InvalidBatchPauseError, InvalidBatchSizeError, InvalidMaxCountError } from './errors.ts';

/** Rows per batch (per transaction) when none is given: Ironic's 50. */
export const DEFAULT_BATCH_SIZE = 50;

const isPositiveInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** Checks `--max-count`: a positive integer, or undefined for no limit. */
export function checkMaxCount(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!isPositiveInteger(value)) throw new InvalidMaxCountError(value);
  return value;
}

/** Checks the batch size: a positive integer; the default when not given. */
export function checkBatchSize(value: unknown): number {
  if (value === undefined) return DEFAULT_BATCH_SIZE;
  if (!isPositiveInteger(value)) throw new InvalidBatchSizeError(value);
  return value;
}

/**
 * Milliseconds between two batches on a single-writer backend (SQLite) when
 * none is given: the write lock is free long enough for another process's
 * writer, retrying every millisecond, to take it (between-batches.ts).
 * The other backends pause for 0 by default.
 */
export const SINGLE_WRITER_BATCH_PAUSE_MS = 2;

/** Checks the pause between batches, in seconds; undefined for none. */
export function checkBatchPause(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0))
    throw new InvalidBatchPauseError(value);
  return value;
}

/** `--max-count <text>` from a command line: digits only, at least 1; absent means no limit. */
export function parseMaxCount(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim())) throw new InvalidMaxCountError(text);
  return checkMaxCount(Number(text.trim()));
}
