/**
 * Resident memory of a process and of every process under it (Linux /proc): the real Ironic's
 * API is a launcher whose workers are its children, so a process is measured with its tree.
 * Undefined where /proc cannot be read.
 */
import { readdirSync, readFileSync } from 'node:fs';

function rssKb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const line = /^VmRSS:\s+(\d+) kB$/m.exec(status);
    return line === null ? undefined : Number(line[1]);
  } catch {
    return undefined;
  }
}

/** The processes `pid` started (its children, not theirs). */
export function children(pid: number): number[] {
  const found: number[] = [];
  try {
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      const listed = readFileSync(`/proc/${pid}/task/${thread}/children`, 'latin1').trim();
      if (listed !== '') found.push(...listed.split(' ').map(Number));
    }
  } catch {
    // gone meanwhile, or no /proc
  }
  return found;
}

/** VmRSS of `pid` and its descendants, in MiB; undefined when `pid` cannot be read. */
export function treeRssMiB(pid: number): number | undefined {
  const own = rssKb(pid);
  if (own === undefined) return undefined;
  let kb = own;
  const pending = children(pid);
  while (pending.length > 0) {
    const child = pending.pop() as number;
    kb += rssKb(child) ?? 0;
    pending.push(...children(child));
  }
  return kb / 1024;
}
