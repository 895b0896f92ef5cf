/**
 * AllocationFailed (Ironic's, a 500 when it reaches the API): why the conductor could not fulfil
 * an allocation. Its text is what the allocation's `last_error` keeps: `Failed to process
 * allocation <uuid>: <error>.`
 */
import { IronicError } from './ironic-error.ts';

export class AllocationFailedError extends IronicError {
  override name = 'AllocationFailedError';
  readonly uuid: string;
  readonly error: string;
  constructor(uuid: string, error: string) {
    super(`Failed to process allocation ${uuid}: ${error}.`);
    this.uuid = uuid;
    this.error = error;
  }
}
