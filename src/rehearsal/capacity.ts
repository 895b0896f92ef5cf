/**
 * The cluster's capacity with the rehearsal's own mix (`--find-capacity`): the load unpaced for
 * one step's length, every worker sending as soon as its last answer came, once on the previous
 * release's cluster before step 0 and once on the new release's after the last step. What the
 * cluster served then is the most it serves with that many workers; each step's figures are
 * read against it. Pure: figures in, lines out.
 */
import type { WindowFigures } from './request-log.ts';

/** One capacity measurement: which cluster, what it served unpaced, each process's CPU. */
export interface CapacityMeasure {
  /** The release every process ran: the previous one's name, or `new`. */
  readonly release: string;
  readonly figures: WindowFigures;
  /** % of a core per process, and `machine` (as a step's). */
  readonly cpu?: Readonly<Record<string, number>>;
}

/** What `--find-capacity` measured: with how many workers, how long, on which cluster. */
export interface CapacityReport {
  readonly workers: number;
  /** The length of each unpaced window (one step's). */
  readonly seconds: number;
  readonly previous?: CapacityMeasure;
  readonly new?: CapacityMeasure;
}

/** How a measure's cluster is named in the lines: the previous release's name, or the new one. */
const clusterName = (measure: CapacityMeasure) =>
  measure.release === 'new' ? 'the new release' : measure.release;

const percentOf = (part: number, whole: number) =>
  whole > 0 ? `${Math.round((part / whole) * 100)} %` : '?';

function measureText(measure: CapacityMeasure, cores: number): string {
  const { figures, cpu } = measure;
  const busy =
    cpu?.machine === undefined ? '' : `, the machine ${Math.round(cpu.machine / cores)} % busy`;
  const failed = figures.failed > 0 ? `, ${figures.failed} failed` : '';
  return `${figures.perSecond} req/s (p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms${failed}${busy})`;
}

/**
 * The capacity lines of the text report: each measurement, the target rate against it, and
 * each step's served rate as a share of the previous release's capacity (the deployment the
 * upgrade starts from, which its operator knows) and of the new release's.
 */
export function capacityLines(
  capacity: CapacityReport | undefined,
  targetRate: number,
  steps: readonly { readonly id: string; readonly figures: WindowFigures }[],
  cores: number,
): string[] {
  if (capacity === undefined) return [];
  const measured = [capacity.previous, capacity.new].filter(
    (m): m is CapacityMeasure => m !== undefined,
  );
  const lines = [
    `Capacity (the load unpaced for ${capacity.seconds} s, ${capacity.workers} workers): ${measured
      .map((m) => `${clusterName(m)} ${measureText(m, cores)}`)
      .join('; ')}`,
  ];
  lines.push(
    `  the target, ${targetRate} req/s, is ${measured
      .map((m) => `${percentOf(targetRate, m.figures.perSecond)} of ${clusterName(m)}'s`)
      .join(' and ')}`,
  );
  for (const step of steps) {
    const shares = measured.map(
      (m) => `${percentOf(step.figures.perSecond, m.figures.perSecond)} of ${clusterName(m)}'s`,
    );
    lines.push(`  step ${step.id}: ${step.figures.perSecond} req/s, ${shares.join(', ')}`);
  }
  return lines;
}
