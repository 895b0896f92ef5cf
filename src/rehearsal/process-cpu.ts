/**
 * How much CPU each process of the cluster used: its user and system time read from
 * `/proc/<pid>/stat` (Linux; elsewhere nothing is read), sampled every second while it lives,
 * so that a step's share of each process is the difference of two snapshots. The rehearsal's
 * own process (the load generator) is counted too. What limits a step's throughput is then
 * written in the report: which process used the cores.
 */
import { readFile } from 'node:fs/promises';

/** Linux reports times in clock ticks of USER_HZ, 100 per second on every architecture it runs. */
const TICKS_PER_SECOND = 100;

/** The CPU seconds (user + system) of a process from its `/proc/<pid>/stat` line. */
export function cpuSecondsFromStat(stat: string): number | undefined {
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  if (!Number.isFinite(user) || !Number.isFinite(system)) return undefined;
  return (user + system) / TICKS_PER_SECOND;
}

async function cpuSecondsOf(pid: number): Promise<number | undefined> {
  try {
    return cpuSecondsFromStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The machine's busy CPU seconds, all cores together, from the `cpu` line of `/proc/stat`. */
export function machineBusySecondsFromStat(stat: string): number | undefined {
  const line = stat.split('\n').find((l) => l.startsWith('cpu '));
  if (line === undefined) return undefined;
  // user nice system idle iowait irq softirq steal …: busy is all but idle and iowait.
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  if (ticks.length < 4 || ticks.some((t) => !Number.isFinite(t))) return undefined;
  const busy = ticks.reduce((sum, t, i) => (i === 3 || i === 4 ? sum : sum + t), 0);
  return busy / TICKS_PER_SECOND;
}

/**
 * The label of the whole machine's busy time in a snapshot: with the processes' own, it says
 * how much went to what the rehearsal did not start (the database server, other work).
 */
export const MACHINE = 'machine';

/** Cumulative CPU seconds per process label, at one moment. */
export type CpuSnapshot = ReadonlyMap<string, number>;

/** The load generator's label in the CPU figures. */
export const LOAD_GENERATOR = 'load generator';

export class CpuSampler {
  readonly #pids = new Map<string, number>();
  /** The last value read per label: a process that exited keeps what it had used. */
  readonly #last = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  /** Follows a process from now on, by a label (its host). */
  follow(label: string, pid: number | undefined): void {
    if (pid !== undefined) this.#pids.set(label, pid);
  }

  /** Stops following a process that exited: its figure stays the last one read. */
  forget(label: string): void {
    this.#pids.delete(label);
  }

  start(intervalMs = 1000): void {
    this.#timer = setInterval(() => void this.sample(), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async sample(): Promise<void> {
    await Promise.all([...this.#pids.keys()].map((label) => this.#read(label)));
    const own = process.cpuUsage();
    this.#last.set(LOAD_GENERATOR, (own.user + own.system) / 1e6);
    try {
      const machine = machineBusySecondsFromStat(await readFile('/proc/stat', 'utf8'));
      if (machine !== undefined) this.#last.set(MACHINE, machine);
    } catch {
      // Not Linux: no figure for the machine.
    }
  }

  /** Samples now and returns every label's cumulative CPU seconds. */
  async snapshot(): Promise<CpuSnapshot> {
    await this.sample();
    return new Map(this.#last);
  }

  async #read(label: string): Promise<void> {
    const pid = this.#pids.get(label);
    if (pid === undefined) return;
    const seconds = await cpuSecondsOf(pid);
    if (seconds !== undefined) this.#last.set(label, seconds);
  }
}

/** The share of a core each process used between two snapshots, in percent, busiest first. */
export function cpuPercentBetween(
  before: CpuSnapshot,
  after: CpuSnapshot,
  seconds: number,
): Record<string, number> {
  const shares = [...after].map(([label, total]): [string, number] => [
    label,
    Math.round(((total - (before.get(label) ?? 0)) / Math.max(0.001, seconds)) * 100),
  ]);
  return Object.fromEntries(shares.filter(([, share]) => share > 0).sort((a, b) => b[1] - a[1]));
}
