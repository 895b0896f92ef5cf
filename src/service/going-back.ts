/**
 * Going back to the previous release in the middle of a rolling upgrade, for `baton upgrade
 * plan` (docs/rehearsal.md, "Going back"). Pure.
 *
 * While every process of the new release is pinned to the previous one and every row is at
 * the previous release's object versions (steps 0 to 2.2), the previous release can read and
 * write everything: its processes may replace the new ones, in the reverse order (APIs, then
 * conductors), one at a time, and the plan gives the next one. From step 3.1 on, unpinned
 * processes write rows the previous release cannot read: going back then first pins every
 * process of the new release again, then rewrites those rows down (`baton db downgrade-rows`),
 * and only then replaces processes. A previous-release process live beside such rows is a
 * problem: it fails on every one of them.
 */
import type { UnreadableRows } from '../db/index.ts';
import { describeUnreadableRows } from '../db/index.ts';

/** What going back needs, as the plan tells it. */
export interface GoingBack {
  /** The previous release's processes may start now (nothing it cannot read, nothing unpinned). */
  readonly safeNow: boolean;
  readonly why: string;
  /** The commands for the next move back, in order. */
  readonly commands: readonly string[];
  /** Rows of types the previous release does not know at all, which going back leaves. */
  readonly notes: readonly string[];
}

/** A live process as going back sees it. */
export interface BackProcess {
  readonly binary: string;
  readonly host: string;
  readonly build: 'previous' | 'pinned' | 'new';
}

export interface GoingBackInput {
  readonly service: string;
  readonly release: string;
  readonly previousRelease: string;
  /** The binaries in upgrade order (conductors first); going back walks it backwards. */
  readonly order: readonly string[];
  readonly processes: readonly BackProcess[];
  readonly rowsAbovePrevious: readonly UnreadableRows[];
  readonly typesUnknownToPrevious: readonly {
    readonly objectName: string;
    readonly table: string;
    readonly count: number;
  }[];
  readonly databaseArgs: string;
  readonly startCommand: (binary: string) => string;
}

/** The process to replace next going back: a pinned one of the last binary in upgrade order. */
function nextToReplace(input: GoingBackInput): BackProcess | undefined {
  for (const binary of [...input.order].reverse()) {
    const process = input.processes.find((p) => p.binary === binary && p.build !== 'previous');
    if (process !== undefined) return process;
  }
  return undefined;
}

export function goingBack(input: GoingBackInput): GoingBack {
  const prev = input.previousRelease;
  const db = input.databaseArgs === '' ? '' : ` ${input.databaseArgs}`;
  const notes = input.typesUnknownToPrevious.map(
    ({ objectName, table, count }) =>
      `${prev} does not know ${objectName}: its ${count} row(s) in ${table} stay where they are when going back (docs/rehearsal.md, "Going back", says what that means)`,
  );
  const unpinned = input.processes.filter((p) => p.build === 'new');
  if (unpinned.length === 0 && input.rowsAbovePrevious.length === 0) {
    const next = nextToReplace(input);
    if (next === undefined) {
      return {
        safeNow: true,
        why: `every process runs ${prev}: nothing to go back from`,
        commands: [],
        notes,
      };
    }
    return {
      safeNow: true,
      why: `every process of ${input.release} is pinned to ${prev} and every row is at ${prev}'s object versions: ${prev}'s processes may replace them, one at a time, APIs first`,
      commands: [
        `kill -TERM <pid of ${next.binary} on ${next.host}>`,
        `${input.startCommand(next.binary)} --config-file <its config file>   # with ${prev}'s baton`,
      ],
      notes,
    };
  }
  const pinFirst = [...input.order]
    .reverse()
    .flatMap((binary) => unpinned.filter((p) => p.binary === binary))
    .flatMap((p) => [
      `# ${p.binary} on ${p.host}: in its config file, [DEFAULT] pin_release_version = ${prev}`,
      `kill -TERM <pid of ${p.binary} on ${p.host}>; ${input.startCommand(p.binary)} --config-file <its config file>`,
    ]);
  const rows =
    input.rowsAbovePrevious.length === 0
      ? ''
      : `; rows ${prev} cannot read: ${describeUnreadableRows(input.rowsAbovePrevious)}`;
  return {
    safeNow: false,
    why: `not yet: ${unpinned.length > 0 ? `${unpinned.length} process(es) of ${input.release} run unpinned` : `every process is pinned`}${rows}. Pin every process to ${prev} again (APIs first), rewrite the rows down, then replace the processes with ${prev} one at a time, APIs first`,
    commands: [
      ...pinFirst,
      `baton db downgrade-rows --service ${input.service} --to ${prev}${db}   # with ${input.release}'s baton, until it exits 0`,
    ],
    notes,
  };
}

/** Live processes of the previous release beside rows it cannot read: they fail on them. */
export function previousBesideNewerRows(input: GoingBackInput): string | undefined {
  const previous = input.processes.filter((p) => p.build === 'previous');
  if (previous.length === 0 || input.rowsAbovePrevious.length === 0) return undefined;
  return `${previous.map((p) => `${p.binary} on ${p.host}`).join(', ')} run(s) ${input.previousRelease}, which cannot read ${describeUnreadableRows(input.rowsAbovePrevious)}: they fail on those rows. Stop them and start ${input.release} there, or go back properly (below)`;
}
