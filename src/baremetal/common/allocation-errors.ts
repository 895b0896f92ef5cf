/**
 * AllocationFailed: why the conductor could not fulfil an allocation. Its text is what the
 * allocation's `last_error` keeps: `Failed to process allocation <uuid>: <error>.` It reaches
 * the API only when a backfill names a node that does not fit; the real class has no status,
 * so the real API answers that request with a 500, and Baton with a 400 (the caller's
 * mistake; docs/baremetal.md).
 */
import { IronicError } from './ironic-error.ts';

export class AllocationFailedError extends IronicError {
  override name = 'AllocationFailedError';
  override get code() {
    return 400;
  }
  readonly uuid: string;
  readonly error: string;
  constructor(uuid: string, error: string) {
    super(`Failed to process allocation ${uuid}: ${error}.`);
    this.uuid = uuid;
    this.error = error;
  }
}
