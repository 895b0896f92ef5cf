/** The count options of a run, validated (the CLI turns the errors into usage messages). */
import { InvalidBatchSizeError, InvalidMaxCountError } from './errors.ts';

/** Rows per batch (per transaction) when none is given: Ironic's 50. */
export const DEFAULT_BATCH_SIZE = 50;

const isPositiveInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

export function checkMaxCount(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!isPositiveInteger(value)) throw new InvalidMaxCountError(value);
  return value;
}

export function checkBatchSize(value: unknown): number {
  if (value === undefined) return DEFAULT_BATCH_SIZE;
  if (!isPositiveInteger(value)) throw new InvalidBatchSizeError(value);
  return value;
}

/** `--max-count <text>` from a command line: digits only, at least 1; absent means no limit. */
export function parseMaxCount(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim())) throw new InvalidMaxCountError(text);
  return checkMaxCount(Number(text.trim()));
}
