/**
 * The service-version spec's gate: a migration that needs newer code everywhere runs only
 * once every live service of the named binary reports that service version.
 * Asked again before every batch, so a service of an older version that
 * (re)starts mid-run stops the migration at the next batch boundary.
 */
import type { Database } from '../connect.ts';
import { type LivenessOptions, minimumVersion } from '../services/index.ts';
import type { ServiceRequirement } from './online-migration.ts';

export interface WaitingFor extends ServiceRequirement {
  /** The oldest live service version of the binary now. */
  readonly currentMinimum: number;
}

/** The first requirement not met, or undefined when the migration may run. */
export async function unmetRequirement(
  db: Database,
  requirements: readonly ServiceRequirement[],
  liveness: LivenessOptions,
): Promise<WaitingFor | undefined> {
  for (const requirement of requirements) {
    const minimum = await minimumVersion(db, requirement.binary, liveness);
    if (minimum !== undefined && minimum < requirement.minServiceVersion) {
      return { ...requirement, currentMinimum: minimum };
    }
  }
  return undefined;
}

/** The message for a migration that waits for older processes to go. */
export function waitingMessage(waiting: WaitingFor): string {
  return (
    `waiting until every live ${waiting.binary} service runs service version ` +
    `${waiting.minServiceVersion} or newer (the oldest runs ${waiting.currentMinimum})`
  );
}
