/**
 * What "live" means: a service whose row was updated (registration or
 * heartbeat) within the last `liveWithinSeconds`. Dead rows stay in the table
 * until an operator removes them, but every query that gates anything counts
 * only live ones, so a crashed old process never holds the minimum back.
 */
import { InvalidDurationError, InvalidServiceVersionError } from './errors.ts';

/** Milliseconds since the epoch; injectable so tests need not sleep. */
export type Clock = () => number;

/** Default window: six missed heartbeats at the suggested 10-second interval (nova's 60 s). */
export const DEFAULT_LIVE_WITHIN_SECONDS = 60;

/** Suggested heartbeat interval. */
export const DEFAULT_HEARTBEAT_SECONDS = 10;

/** When a service is taken as live. */
export interface LivenessOptions {
  /** A service seen within this many seconds is live (default 60). */
  readonly liveWithinSeconds?: number;
  readonly clock?: Clock;
}

/** The oldest `last_seen` (epoch ms) a live service can have. */
export function liveSince(options: LivenessOptions = {}): number {
  const seconds = options.liveWithinSeconds ?? DEFAULT_LIVE_WITHIN_SECONDS;
  checkSeconds('liveWithinSeconds', seconds);
  return (options.clock ?? Date.now)() - seconds * 1000;
}

export function checkSeconds(option: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new InvalidDurationError(option, value);
}

export function checkServiceVersion(version: number): void {
  if (!Number.isSafeInteger(version) || version < 1) throw new InvalidServiceVersionError(version);
}
