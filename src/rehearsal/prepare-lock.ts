/**
 * One preparer at a time for a cached thing (the previous release's build): a lock folder
 * (mkdir is atomic) holding its owner's pid. The others wait until the thing is ready, or take
 * the lock over when its owner is gone.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LockOptions {
  readonly say?: (line: string) => void;
  /** How long to wait for another preparer (20 min). */
  readonly waitMs?: number;
  readonly pollMs?: number;
  /** A lock folder without a pid file after this long is a preparer that died taking it. */
  readonly pidlessMs?: number;
}

/** Whether the process of this pid still runs. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock's owner: its pid, 'taking' while the pid is not written yet, or 'gone'. */
async function owner(lock: string, pidlessMs: number): Promise<number | 'taking' | 'gone'> {
  const text = await readFile(join(lock, 'pid'), 'utf8').catch(() => undefined);
  const pid = text === undefined ? Number.NaN : Number.parseInt(text, 10);
  if (Number.isInteger(pid)) return running(pid) ? pid : 'gone';
  const made = await stat(lock).catch(() => undefined);
  if (made === undefined) return 'gone';
  return Date.now() - made.mtimeMs > pidlessMs ? 'gone' : 'taking';
}

/**
 * Takes `lock`, waiting while a live process holds it; false (no lock taken) once `ready`
 * exists. The caller removes `lock` when done.
 */
export async function lockUnlessReady(
  lock: string,
  ready: string,
  options: LockOptions = {},
): Promise<boolean> {
  const { say = () => {}, waitMs = 20 * 60_000, pollMs = 1000, pidlessMs = 60_000 } = options;
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    if (existsSync(ready)) return false;
    try {
      await mkdir(lock);
      await writeFile(join(lock, 'pid'), `${process.pid}\n`);
      // The last owner may have finished between the check above and the mkdir.
      if (!existsSync(ready)) return true;
      await rm(lock, { recursive: true, force: true });
      return false;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await owner(lock, pidlessMs);
    if (holder === 'gone') {
      await rm(lock, { recursive: true, force: true });
      continue;
    }
    if (!told) {
      say(
        `another process (${holder === 'taking' ? 'starting' : `pid ${holder}`}) prepares it; waiting`,
      );
      told = true;
    }
    if (Date.now() > deadline) throw new Error(`${lock} held for more than ${waitMs / 1000} s`);
    await sleep(pollMs);
  }
}
