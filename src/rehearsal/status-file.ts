/**
 * The rehearsal's status for the dashboard (src/service/dashboard/rehearsal-status.ts): the
 * step and the load's requests served and failed so far, written every second to a file of
 * the run folder that the API processes are told about (BATON_REHEARSAL_STATUS). Written
 * whole and renamed into place, so a reader never sees half a file.
 */
import { rename, writeFile } from 'node:fs/promises';
import type { RehearsalStatus } from '../service/dashboard/rehearsal-status.ts';

export interface StatusPublisher {
  /** Writes once more now (the last status), then stops. */
  stop(): Promise<void>;
}

export function publishStatus(
  path: string,
  status: () => Omit<RehearsalStatus, 'updatedAt'>,
  everyMs = 1000,
): StatusPublisher {
  let writing: Promise<void> = Promise.resolve();
  const write = () => {
    writing = writing.then(async () => {
      const next = `${path}.next`;
      await writeFile(next, JSON.stringify({ ...status(), updatedAt: new Date().toISOString() }));
      await rename(next, path);
    });
    // A failed write is not the rehearsal's failure: the next one may succeed.
    writing = writing.catch(() => {});
  };
  write();
  const timer = setInterval(write, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      write();
      await writing;
    },
  };
}
