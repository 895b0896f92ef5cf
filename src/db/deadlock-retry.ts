/**
 * A write transaction run again when the database aborted it to break a deadlock (or, on
 * PostgreSQL, a serialization failure): the work as a whole is retried, as oslo.db's
 * `retry_on_deadlock` does for the real services' DB API writes. Bounded, with a short
 * growing pause so the winner can finish first.
 */
import type { Kysely } from 'kysely';
import type { Database } from './connect.ts';
import { inTransaction } from './transaction.ts';

/** Attempts in all (oslo.db's retry_on_deadlock: 5 retries). */
export const DEADLOCK_ATTEMPTS = 6;

/** PostgreSQL deadlock_detected and serialization_failure; MariaDB/MySQL ER_LOCK_DEADLOCK. */
export function isDeadlock(error: unknown): boolean {
  const e = error as { code?: unknown; errno?: unknown } | null;
  if (e === null || typeof e !== 'object') return false;
  return (
    e.code === '40P01' || e.code === '40001' || e.errno === 1213 || e.code === 'ER_LOCK_DEADLOCK'
  );
}

/** How often and how long retryOnDeadlock tries again. */
export interface DeadlockRetryOptions {
  readonly attempts?: number;
  /** Called before each new attempt (for logs and tests). */
  readonly onRetry?: (attempt: number, error: unknown) => void;
}

/** Runs `work`, again while it fails with a deadlock, at most `attempts` times. */
export async function retryOnDeadlock<T>(
  work: () => Promise<T>,
  options: DeadlockRetryOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? DEADLOCK_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isDeadlock(error)) throw error;
      options.onRetry?.(attempt, error);
      // 10, 20, 40… ms with jitter: two losers do not meet again at once.
      const pause = 10 * 2 ** (attempt - 1) * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** `inTransaction`, run again from the start when the database breaks a deadlock with it. */
export function inRetriedTransaction<DB, T>(
  database: Database<DB>,
  work: (trx: Kysely<DB>) => Promise<T>,
  options: DeadlockRetryOptions = {},
): Promise<T> {
  return retryOnDeadlock(() => inTransaction(database, work), options);
}
