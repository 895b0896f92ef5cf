/**
 * The processes this one started, and theirs (Linux: read from /proc), so that a bench
 * interrupted in the middle of starting a service can still stop what it had started.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The parent pid of `pid`, from /proc/<pid>/stat (after the command name in parentheses). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Every live descendant of `root`, children before their own children. */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const parent = parentOf(pid);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Whether `pid` still runs (a zombie, dead but not yet reaped by its parent, does not). */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * SIGTERM to every descendant, SIGKILL to those still running after `graceMs`. The pids are
 * those found first: a child whose parent died belongs to init from then on, no longer to us.
 */
export async function stopDescendants(root: number, graceMs: number): Promise<void> {
  const pids = descendantsOf(root);
  const signal = (name: NodeJS.Signals) => {
    for (const pid of pids.filter(running)) {
      try {
        process.kill(pid, name);
      } catch {
        // gone meanwhile
      }
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && pids.some(running)) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  signal('SIGKILL');
}
