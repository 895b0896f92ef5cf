/**
 * The rehearsal's report: one row per step of the rolling-upgrade doc's table (the processes and what they
 * run, the caps in force they report, the load's figures during the step, rows per object
 * version at its end), the total, the failures, and the data check. Pure: data in, text out;
 * `--json` writes the same data.
 */
import { renderBoxTable } from '../db/upgrade-check/box-table.ts';
import { type CapacityReport, capacityLines } from './capacity.ts';
import type { DataCheckResult } from './data-check.ts';
import type { VersionCounts } from './database-snapshot.ts';
import type { ReportedCaps } from './metrics-caps.ts';
import type { OutcomeFailure, RequestRecord, WindowFigures } from './request-log.ts';
import type { SlowRequest } from './slow-requests.ts';
import type { Build, Tier } from './step-plan.ts';
import type { TimelinePoint } from './timeline.ts';

/** One process at a step: its tier, host, build and the caps it reports. */
export interface ProcessView {
  readonly tier: Tier;
  readonly host: string;
  readonly build: Build;
  /** The release it runs, as words: `zed`, `new pinned to zed`, `new`. */
  readonly runs: string;
  /** Its row's service version in the services table. */
  readonly serviceVersion?: number;
  /** What its `/metrics` reports. */
  readonly caps?: ReportedCaps;
}

/** A command a step ran (`db upgrade`…) and how it ended. */
export interface CommandView {
  readonly command: string;
  readonly status: number;
  readonly seconds: number;
  readonly output: string;
}

/** One step of the rehearsal: what ran, the load's figures, the rows per object version. */
export interface StepReport {
  readonly id: string;
  readonly title: string;
  /** What each tier runs, in `baton upgrade plan`'s words: "all old" … */
  readonly api: string;
  readonly conductor: string;
  readonly processes: readonly ProcessView[];
  readonly commands: readonly CommandView[];
  /** When its transition began and its hold ended (ms since the epoch). */
  readonly from: number;
  readonly to: number;
  readonly figures: WindowFigures;
  readonly versions: VersionCounts;
  /**
   * The share of one core each process used during the step, in percent (`load generator`:
   * the rehearsal itself); absent in reports written before it, or off Linux.
   */
  readonly cpu?: Readonly<Record<string, number>>;
  /** The step's slowest requests and what the cluster did meanwhile. */
  readonly slowest?: readonly SlowRequest[];
}

/** The rehearsal's whole report: each step, the totals, the failures and the data check. */
export interface RehearsalReport {
  /** The service rehearsed (`--service`); absent in reports written before it was a choice. */
  readonly service?: string;
  /** The object types shown with each process's caps (default: the bare metal Node and Port). */
  readonly objectsShown?: readonly string[];
  readonly previous: { readonly name: string; readonly commit: string };
  readonly database: string;
  readonly rpc: string;
  readonly stepSeconds: number;
  readonly targetRate: number;
  /** The machine's cores: the whole cluster's CPU share is out of 100 % per core. */
  readonly cores?: number;
  readonly microversion: string;
  readonly steps: readonly StepReport[];
  /** What the cluster served unpaced (`--find-capacity`); absent without it. */
  readonly capacity?: CapacityReport;
  readonly total: WindowFigures;
  readonly failedRequests: readonly RequestRecord[];
  readonly outcomeFailures: readonly OutcomeFailure[];
  readonly processExits: readonly { readonly name: string; readonly status: number }[];
  readonly dataCheck: DataCheckResult;
  /** The load second by second, for the HTML page; absent in reports written before it. */
  readonly timeline?: readonly TimelinePoint[];
  readonly ok: boolean;
}

/** The objects a bare metal step table shows with each process's caps. */
const BAREMETAL_OBJECTS_SHOWN = ['Node', 'Port'];

/** Zero failed requests, no failed outcome, every process and command ended well, clean data. */
export function rehearsalPassed(report: Omit<RehearsalReport, 'ok'>): boolean {
  return (
    report.total.failed === 0 &&
    report.outcomeFailures.length === 0 &&
    report.dataCheck.problems.length === 0 &&
    report.processExits.every((exit) => exit.status === 0) &&
    report.steps.every((step) => step.commands.every((command) => command.status === 0))
  );
}

function processLine(view: ProcessView, objectsShown: readonly string[]): string {
  const caps = view.caps;
  const objects = objectsShown.map((name) => ` ${name} ${caps?.objects[name] ?? '?'}`).join('');
  const inForce = caps === undefined ? 'caps ?' : `rpc ${caps.rpcCap} api ${caps.apiMax}${objects}`;
  const version = view.serviceVersion === undefined ? '' : ` v${view.serviceVersion}`;
  return `${view.host}: ${view.runs}${version}, ${inForce}`;
}

function versionLines(versions: VersionCounts): string {
  return Object.entries(versions)
    .filter(([, counts]) => Object.keys(counts).length > 0)
    .map(
      ([object, counts]) =>
        `${object} ${Object.entries(counts)
          .map(([version, n]) => `${version}:${n}`)
          .join(' ')}`,
    )
    .join('\n');
}

/** The steps as a text table. */
export function renderStepTable(
  steps: readonly StepReport[],
  objectsShown: readonly string[] = BAREMETAL_OBJECTS_SHOWN,
): string {
  return renderBoxTable(
    [
      'step',
      'API / conductor',
      'processes: release, caps in force',
      'served',
      'failed',
      'req/s',
      'p50 ms',
      'p99 ms',
      'rows per object version',
    ],
    steps.map((step) => [
      step.id,
      `${step.api}\n${step.conductor}`,
      step.processes.map((view) => processLine(view, objectsShown)).join('\n'),
      String(step.figures.served),
      String(step.figures.failed + step.figures.outcomeFailures),
      String(step.figures.perSecond),
      String(step.figures.p50Ms),
      String(step.figures.p99Ms),
      versionLines(step.versions),
    ]),
    { ruleBetweenRows: true, alignRight: [3, 4, 5, 6, 7] },
  );
}

/** The report as text: the step table, totals, failures and the data check. */
export function renderReport(report: RehearsalReport): string {
  const lines = [
    `Rehearsal: ${report.previous.name} (${report.previous.commit.slice(0, 12)}) -> working tree, ${report.database}, rpc ${report.rpc}, ${report.stepSeconds} s per step, load at ${report.microversion} (target ${report.targetRate} req/s)`,
    renderStepTable(report.steps, report.objectsShown),
    `Total: ${report.total.requests} requests, ${report.total.served} served, ${report.total.failed} failed, ${report.total.perSecond} req/s, p50 ${report.total.p50Ms} ms, p99 ${report.total.p99Ms} ms, max ${report.total.maxMs} ms`,
    `By kind: ${Object.entries(report.total.byKind)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ')}`,
  ];
  lines.push(...stepCostLines(report));
  lines.push(...capacityLines(report.capacity, report.targetRate, report.steps, report.cores ?? 1));
  for (const step of report.steps) {
    for (const command of step.commands) {
      lines.push(
        `step ${step.id}: ${command.command} -> exit ${command.status} (${command.seconds} s)`,
      );
    }
  }
  const failedExits = report.processExits.filter((exit) => exit.status !== 0);
  lines.push(
    failedExits.length === 0
      ? `Processes: ${report.processExits.length} stopped, every one with exit 0`
      : `Processes that did not exit 0: ${failedExits.map((e) => `${e.name} (${e.status})`).join(', ')}`,
  );
  for (const failure of report.failedRequests.slice(0, 20)) {
    lines.push(
      `FAILED ${new Date(failure.startedAt).toISOString()} ${failure.method} ${failure.path} -> ${failure.status} ${failure.detail ?? ''}`.trim(),
    );
  }
  for (const failure of report.outcomeFailures.slice(0, 20)) {
    lines.push(`FAILED ${new Date(failure.at).toISOString()} ${failure.what}`);
  }
  const check = report.dataCheck;
  lines.push(
    `Data check: ${check.summary}; ${check.problems.length === 0 ? 'clean' : `${check.problems.length} problems`}`,
  );
  lines.push(
    `  compared, by field and the microversion it was written at: ${
      Object.entries(check.compared)
        .map(([field, n]) => `${field} ${n}`)
        .join(', ') || 'nothing'
    }`,
  );
  for (const problem of check.problems.slice(0, 20)) lines.push(`  ${problem}`);
  lines.push(report.ok ? 'Rehearsal passed.' : 'Rehearsal FAILED.');
  return lines.join('\n');
}

/**
 * Where each step's time went: the share of a core each process used (the machine has
 * `cores` x 100 %), and the slowest requests with what the cluster did meanwhile.
 */
export function stepCostLines(report: RehearsalReport): string[] {
  const lines: string[] = [];
  const capacity = (report.cores ?? 1) * 100;
  for (const step of report.steps) {
    if (step.cpu !== undefined && Object.keys(step.cpu).length > 0) {
      const { machine, ...processes } = step.cpu;
      const total = Object.values(processes).reduce((sum, share) => sum + share, 0);
      const busy =
        machine === undefined
          ? ''
          : `; the machine was ${Math.round((machine / capacity) * 100)} % busy (${Math.max(0, machine - total)} went to other processes: the database server, commands, other work)`;
      const each = Object.entries(processes).map(([name, share]) => `${name} ${share}`);
      lines.push(
        `step ${step.id} CPU, % of a core: ${each.join(', ')}; in all ${total} of ${capacity}${busy}`,
      );
    }
    for (const slow of step.slowest ?? []) {
      const during = slow.during.length === 0 ? 'no cluster event' : slow.during.join(', ');
      lines.push(
        `  slow: ${slow.ms} ms ${slow.method} ${slow.path} (${slow.kind}, ${slow.status}); ${slow.inFlight} other requests in flight; during: ${during}`,
      );
    }
  }
  return lines;
}
