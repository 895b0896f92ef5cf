/**
 * What `baton rehearse` tells the dashboard: it writes this JSON to a file of its run folder
 * every second and names the file to the API processes it starts in BATON_REHEARSAL_STATUS;
 * their dashboard shows it while it is fresh (docs/rehearsal.md, "Dashboard").
 */
import { readFile } from 'node:fs/promises';

export const REHEARSAL_STATUS_ENV = 'BATON_REHEARSAL_STATUS';

export interface RehearsalStatus {
  /** the rolling-upgrade doc's step being held or reached (`1.1`, `done`), or `starting` / `finished`. */
  readonly step: string;
  readonly title: string;
  /** Requests of the load so far: answered as expected, and failed. */
  readonly served: number;
  readonly failed: number;
  readonly updatedAt: string;
}

/** A status older than this is a rehearsal that ended without saying so. */
const STALE_MS = 30_000;

/** The status in the file, or undefined when there is none, it is unreadable or stale. */
export async function readRehearsalStatus(
  path: string | undefined,
  now: number,
): Promise<RehearsalStatus | undefined> {
  if (path === undefined || path === '') return undefined;
  try {
    const status = JSON.parse(await readFile(path, 'utf8')) as RehearsalStatus;
    if (typeof status.step !== 'string' || typeof status.served !== 'number') return undefined;
    if (now - Date.parse(status.updatedAt) > STALE_MS) return undefined;
    return status;
  } catch {
    return undefined;
  }
}
