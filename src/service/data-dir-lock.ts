/**
 * One `baton up` per data directory: a lock file (`baton-up.lock`, created exclusively) naming
 * the process that holds it and since when. A second `baton up` on the directory exits naming
 * the first, which goes on unharmed; a lock whose process is gone (killed) is taken over.
 */
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

export const DATA_DIR_LOCK = 'baton-up.lock';

interface LockRecord {
  readonly pid: number;
  readonly since: string;
}

/** The directory is held by another live process. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  readonly holder: LockRecord;
  constructor(dir: string, holder: LockRecord) {
    super(
      `another baton up (pid ${holder.pid}, since ${holder.since}) is running on ${dir}; stop it first, or give this one another --data-dir`,
    );
    this.holder = holder;
  }
}

function runs(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function holderOf(path: string): Promise<LockRecord | undefined> {
  try {
    const record = JSON.parse(await readFile(path, 'utf8')) as LockRecord;
    return Number.isInteger(record.pid) ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the lock of `dir` for this process; returns its release. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, DATA_DIR_LOCK);
  const mine: LockRecord = { pid: process.pid, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = await open(path, 'wx');
      await file.writeFile(`${JSON.stringify(mine)}\n`);
      await file.close();
      return async () => {
        // Only our own lock: a successor may have taken over a lock we lost.
        if ((await holderOf(path))?.pid === process.pid) await rm(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await holderOf(path);
    if (holder !== undefined && runs(holder.pid)) throw new DataDirLockedError(dir, holder);
    // Its process is gone (or the file is half written by a crash): taken over.
    await rm(path, { force: true });
  }
  throw new Error(`could not take the lock ${path}`);
}
