/**
 * CPU time of the processes a benchmark drives, read from Linux's /proc: the server's, and
 * that of the PostgreSQL backends serving its database (found by their process title, which
 * names the database). Requests per second move with whatever else runs on a shared machine;
 * CPU milliseconds per request mostly do not, so they tell whether a change made the work
 * cheaper. Where /proc cannot be read the figures are undefined.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpuSecondsFromStat } from '../../src/rehearsal/process-cpu.ts';

/** Linux reports CPU time in clock ticks of 1/100 s on every platform Node supports. */
const MS_PER_TICK = 10;

function cpuTicks(pid: number): number | undefined {
  try {
    const seconds = cpuSecondsFromStat(readFileSync(`/proc/${pid}/stat`, 'latin1'));
    return seconds === undefined ? undefined : Math.round((seconds * 1000) / MS_PER_TICK);
  } catch {
    return undefined;
  }
}

function backendPids(database: string): number[] {
  const pids: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
      if (title.startsWith('postgres: ') && title.includes(` ${database} `)) {
        pids.push(Number(entry));
      }
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export interface CpuSpent {
  /** The server process, all its threads. */
  readonly serverMs: number | undefined;
  /** The database's PostgreSQL backends (undefined for other backends). */
  readonly databaseMs: number | undefined;
}

/**
 * Measures from start() to stop(). Backends are sampled while it runs (every 200 ms), so one
 * that exits mid-phase still counts up to its last sample.
 */
export class CpuMeter {
  readonly #serverPid: number | undefined;
  readonly #database: string | undefined;
  #serverStart: number | undefined;
  /** Backend pid → [ticks when first seen, ticks when last seen]. */
  #backends = new Map<number, [number, number]>();
  #timer: NodeJS.Timeout | undefined;

  constructor(serverPid: number | undefined, postgresDatabase: string | undefined) {
    this.#serverPid = serverPid;
    this.#database = postgresDatabase;
  }

  #sample(first: boolean): void {
    if (this.#database === undefined) return;
    for (const pid of backendPids(this.#database)) {
      const ticks = cpuTicks(pid);
      if (ticks === undefined) continue;
      const seen = this.#backends.get(pid);
      // A backend first seen after start() was born during the phase: all of its time counts.
      if (seen === undefined) this.#backends.set(pid, [first ? ticks : 0, ticks]);
      else seen[1] = ticks;
    }
  }

  start(): void {
    this.#serverStart = this.#serverPid === undefined ? undefined : cpuTicks(this.#serverPid);
    this.#backends = new Map();
    this.#sample(true);
    this.#timer = setInterval(() => this.#sample(false), 200);
    this.#timer.unref();
  }

  stop(): CpuSpent {
    clearInterval(this.#timer);
    this.#sample(false);
    const serverEnd = this.#serverPid === undefined ? undefined : cpuTicks(this.#serverPid);
    let databaseTicks = 0;
    for (const [from, to] of this.#backends.values()) databaseTicks += to - from;
    return {
      serverMs:
        this.#serverStart === undefined || serverEnd === undefined
          ? undefined
          : (serverEnd - this.#serverStart) * MS_PER_TICK,
      databaseMs:
        this.#database === undefined || this.#backends.size === 0
          ? undefined
          : databaseTicks * MS_PER_TICK,
    };
  }
}

/** The load average, for the record next to a figure. */
export function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'latin1').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
}
