/**
 * The rolling-upgrade table of docs/design.md for a deployment's current state (issue 15 §7, `baton
 * upgrade plan`): what each live process runs, which step of the table the deployment is at,
 * and the next step with the exact commands for it. Pure: the state is read elsewhere
 * (deployment-state.ts).
 *
 * A process is old when its service version is below this code's, new pinned when it runs
 * this code with its versions capped at an older release (`pin_release_version`, or Baton's
 * automatic caps while an older process was live), new otherwise (the rolling-upgrade doc's
 * FromVer, ToVer-pinned and ToVer). A service without versioned
 * objects (Placement) has no pinned phase: its processes go from old to new directly.
 */
import { rowsNewerThan, type SchemaState, type UnreadableRows } from '../db/index.ts';
import type { DeploymentState } from './deployment-state.ts';
import { type GoingBack, goingBack, previousBesideNewerRows } from './going-back.ts';
import type { ServiceDefinition } from './service-definition.ts';

/** What a live process runs, in the rolling-upgrade doc's terms. */
export type Build = 'previous' | 'pinned' | 'new';

export interface PlanProcess {
  readonly binary: string;
  readonly host: string;
  readonly version: number;
  readonly live: boolean;
  readonly lastSeen: Date;
  readonly pinRelease?: string | undefined;
  readonly capsRelease?: string | undefined;
  /** The process and the machine it runs on, and the config files it read (its services row). */
  readonly pid?: number | undefined;
  readonly machine?: string | undefined;
  readonly configFiles?: readonly string[] | undefined;
}

export interface PlanMigration {
  readonly name: string;
  /** Rows left; undefined when the probe failed. */
  readonly pending: number | undefined;
  /** Why it cannot run yet (a live process too old), when it cannot. */
  readonly waiting?: string | undefined;
}

export interface PlanInput {
  readonly service: string;
  /** This code's release (new) and the one before it (old), if any. */
  readonly release: string;
  readonly previousRelease: string | undefined;
  readonly codeVersion: number;
  /** The release each older service version runs (old processes). */
  readonly releaseOfVersion: (version: number) => string | undefined;
  /** The binaries in the order they are upgraded (conductors before APIs). */
  readonly order: readonly string[];
  /** Whether processes of this code are pinned during the upgrade (versioned objects). */
  readonly pinnedPhase: boolean;
  readonly processes: readonly PlanProcess[];
  readonly schema: {
    readonly state: SchemaState;
    readonly pending: readonly string[];
    /** False when this code applied every migration (a fresh install); unknown: not fresh. */
    readonly appliedByOlderCode?: boolean;
  };
  readonly onlineMigrations: readonly PlanMigration[];
  /** How the commands name the database: `--db URL`, `--config-file F`, or empty. */
  readonly databaseArgs: string;
  /** How each binary is started (`baton baremetal conductor`). */
  readonly startCommand: (binary: string) => string;
  /** Rows at object versions the previous release cannot read (written unpinned). */
  readonly rowsAbovePrevious?: readonly UnreadableRows[];
  /** Rows at an object version older than this code's latest (none: every row is at it). */
  readonly rowsBelowLatest?: number;
  /** Object types the previous release does not know at all, whose tables hold rows. */
  readonly typesUnknownToPrevious?: readonly {
    readonly objectName: string;
    readonly table: string;
    readonly count: number;
  }[];
}

/** `not needed`: a fresh install, which no step of the table leads to. */
export type StepState = 'done' | 'next' | 'to do' | 'not needed';

/** A step of the upgrade plan and where the deployment stands on it. */
export interface PlanStep {
  readonly id: string;
  /** What each binary runs after the step ("all new pinned"). */
  readonly tiers: Readonly<Record<string, string>>;
  readonly what: string;
  readonly state: StepState;
}

/** A live process as the plan sees it. */
export interface PlannedProcess {
  readonly binary: string;
  readonly host: string;
  readonly version: number;
  readonly build: Build;
  /** `zed`, `antelope pinned to zed`, `antelope capped at zed (automatic)`, `antelope`. */
  readonly runs: string;
  readonly pinRelease: string | undefined;
  readonly capsRelease: string | undefined;
  readonly pid: number | undefined;
  readonly machine: string | undefined;
  readonly configFiles: readonly string[];
}

/** The next step to take. */
export interface NextStep {
  readonly id: string;
  readonly what: string;
  readonly commands: readonly string[];
}

/** The upgrade plan: the steps, where the deployment is, and what to do next. */
export interface UpgradePlan {
  readonly service: string;
  readonly fromRelease: string | undefined;
  readonly toRelease: string;
  readonly processes: readonly PlannedProcess[];
  readonly schema: SchemaState;
  readonly pendingOnlineMigrations: number;
  readonly steps: readonly PlanStep[];
  /** The step the deployment is at; undefined before step 0 or off the table. */
  readonly current: string | undefined;
  /** Undefined when the upgrade is complete or the deployment is off the table. */
  readonly next: NextStep | undefined;
  /** Why the deployment is not at a step of the table, when it is not. */
  readonly problems: readonly string[];
  /** A state off the table that is safe (a tier restarted back, or out of order, pinned). */
  readonly note: string | undefined;
  /** Going back to the previous release from here; undefined when there is none. */
  readonly back: GoingBack | undefined;
  readonly complete: boolean;
  /**
   * A fresh install of this release: no process of an older release registered (live or
   * dead), none pinned or capped, the schema current, every row at the latest object
   * versions and no online migration pending. Not an upgrade, finished or not.
   */
  readonly fresh: boolean;
}

const WORD: Record<Build, string> = { previous: 'old', pinned: 'new pinned', new: 'new' };

/** The builds of one tier in words: "all old", "some old, some new pinned". */
export function describeTier(builds: readonly Build[]): string {
  const kinds = (['previous', 'pinned', 'new'] as const).filter((kind) => builds.includes(kind));
  if (kinds.length === 0) return 'none live';
  if (kinds.length === 1) return `all ${WORD[kinds[0] as Build]}`;
  return kinds.map((kind) => `some ${WORD[kind]}`).join(', ');
}

function buildOf(process: PlanProcess, input: PlanInput): Build {
  if (process.version < input.codeVersion) return 'previous';
  if (input.pinnedPhase && process.capsRelease !== undefined) return 'pinned';
  return 'new';
}

function runsOf(process: PlanProcess, build: Build, input: PlanInput): string {
  if (build === 'previous') {
    return input.releaseOfVersion(process.version) ?? `service version ${process.version}`;
  }
  if (build === 'new') return input.release;
  if (process.pinRelease !== undefined) return `${input.release} pinned to ${process.pinRelease}`;
  return `${input.release} capped at ${process.capsRelease} (automatic)`;
}

interface TableStep {
  readonly id: string;
  readonly tiers: Readonly<Record<string, string>>;
  readonly what: string;
  /** The binary whose processes this step restarts, and into what. */
  readonly moves?: { readonly binary: string; readonly to: Build };
}

/** The table for these binaries: the rolling-upgrade doc's, or without the pinned phase. */
export function stepTable(
  order: readonly string[],
  pinnedPhase: boolean,
  previous = 'the previous release',
): TableStep[] {
  const all = (build: Build) => `all ${WORD[build]}`;
  const some = (a: Build, b: Build) => `some ${WORD[a]}, some ${WORD[b]}`;
  const row = (moving: number, from: Build, to: Build, complete: boolean) =>
    Object.fromEntries(
      order.map((binary, i) => [
        binary,
        i < moving ? all(to) : i === moving ? (complete ? all(to) : some(from, to)) : all(from),
      ]),
    );
  const steps: TableStep[] = [
    {
      id: '0',
      tiers: Object.fromEntries(order.map((binary) => [binary, all('previous')])),
      what: 'schema upgraded with the new code, old processes running',
    },
  ];
  const waves: {
    from: Build;
    to: Build;
    phase: (i: number) => number;
    first: (i: number) => number;
  }[] = pinnedPhase
    ? [
        { from: 'previous', to: 'pinned', phase: (i) => i + 1, first: () => 1 },
        { from: 'pinned', to: 'new', phase: () => order.length + 1, first: (i) => 2 * i + 1 },
      ]
    : [{ from: 'previous', to: 'new', phase: (i) => i + 1, first: () => 1 }];
  for (const wave of waves) {
    for (const [i, binary] of order.entries()) {
      const phase = wave.phase(i);
      const first = wave.first(i);
      const verb =
        wave.to === 'pinned'
          ? `${binary}: new code, pinned to ${previous}`
          : wave.from === 'pinned'
            ? `${binary}: unpinned`
            : `${binary}: new code`;
      steps.push({
        id: `${phase}.${first}`,
        tiers: row(i, wave.from, wave.to, false),
        what: `${verb} (one by one)`,
        moves: { binary, to: wave.to },
      });
      steps.push({
        id: `${phase}.${first + 1}`,
        tiers: row(i, wave.from, wave.to, true),
        what: `${verb} (all)`,
        moves: { binary, to: wave.to },
      });
    }
  }
  steps.push({
    id: 'done',
    tiers: Object.fromEntries(order.map((binary) => [binary, all('new')])),
    what: 'online data migrations to completion, then the upgrade check',
  });
  return steps;
}

function sameTiers(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) {
  return Object.keys(a).every((binary) => b[binary] === 'none live' || a[binary] === b[binary]);
}

/** Plans the upgrade from the live processes and the database's state. */
export function planUpgrade(input: PlanInput): UpgradePlan {
  const live = input.processes.filter(
    (p) => p.live && input.order.includes(p.binary) && p.version <= input.codeVersion,
  );
  const newer = input.processes.filter(
    (p) => p.live && input.order.includes(p.binary) && p.version > input.codeVersion,
  );
  const processes: PlannedProcess[] = live.map((p) => {
    const build = buildOf(p, input);
    return {
      binary: p.binary,
      host: p.host,
      version: p.version,
      build,
      runs: runsOf(p, build, input),
      pinRelease: p.pinRelease,
      capsRelease: p.capsRelease,
      pid: p.pid,
      machine: p.machine,
      configFiles: p.configFiles ?? [],
    };
  });
  const tiers = Object.fromEntries(
    input.order.map((binary) => [
      binary,
      describeTier(processes.filter((p) => p.binary === binary).map((p) => p.build)),
    ]),
  );
  const table = stepTable(input.order, input.pinnedPhase, input.previousRelease);
  const pending = input.onlineMigrations.reduce((sum, m) => sum + (m.pending ?? 0), 0);
  const db = input.databaseArgs === '' ? '' : ` ${input.databaseArgs}`;
  const service = `--service ${input.service}`;
  const problems: string[] = [];
  let note: string | undefined;
  let current: string | undefined;
  let next: NextStep | undefined;
  let complete = false;
  const back =
    input.previousRelease === undefined
      ? undefined
      : {
          service: input.service,
          release: input.release,
          previousRelease: input.previousRelease,
          order: input.order,
          processes,
          rowsAbovePrevious: input.rowsAbovePrevious ?? [],
          typesUnknownToPrevious: input.typesUnknownToPrevious ?? [],
          databaseArgs: input.databaseArgs,
          startCommand: input.startCommand,
        };

  const nextFrom = (step: TableStep): NextStep => {
    if (step.id === '0') {
      return {
        id: '0',
        what: step.what,
        commands: [`baton db upgrade ${service}${db}   # with the new release's baton`],
      };
    }
    if (step.id === 'done') {
      const waiting = input.onlineMigrations.filter((m) => m.waiting !== undefined);
      return {
        id: 'done',
        what:
          waiting.length > 0
            ? `${step.what}; waiting: ${waiting.map((m) => `${m.name} (${m.waiting})`).join('; ')}`
            : `${step.what} (${pending} row(s) to migrate)`,
        commands: [
          `baton db online-migrations ${service}${db}`,
          `baton upgrade-check ${service}${db}`,
        ],
      };
    }
    const moves = step.moves as { binary: string; to: Build };
    const from: Build = moves.to === 'new' && input.pinnedPhase ? 'pinned' : 'previous';
    const target = processes.find((p) => p.binary === moves.binary && p.build === from);
    const who = target === undefined ? `a ${moves.binary}` : `${moves.binary} on ${target.host}`;
    // The pid and config files its services row records, where it recorded them.
    const config =
      target === undefined || target.configFiles.length === 0
        ? '--config-file <its config file>'
        : target.configFiles.map((file) => `--config-file ${file}`).join(' ');
    const where = target?.machine === undefined ? '' : `   # on ${target.machine}`;
    const signal = (name: string) =>
      target?.pid === undefined
        ? `kill -${name} <pid of ${who}>`
        : `kill -${name} ${target.pid}${where}`;
    const start = `${input.startCommand(moves.binary)} ${config}`;
    if (moves.to === 'pinned') {
      return {
        id: step.id,
        what: `restart ${who} with the new code, pinned to ${input.previousRelease ?? 'the previous release'}`,
        commands: [
          `# in ${configFileWords(target)}: [DEFAULT] pin_release_version = ${input.previousRelease ?? '<previous release>'}`,
          signal('TERM'),
          `${start}   # with the new release's baton`,
        ],
      };
    }
    if (
      moves.to === 'new' &&
      input.pinnedPhase &&
      target !== undefined &&
      target.pinRelease === undefined
    ) {
      // Automatic caps follow the deployment: with no older process live, a reload lifts them.
      return {
        id: step.id,
        what: `lift the automatic caps of ${who} (no older process is live any more)`,
        commands: [`${signal('HUP')}${where === '' ? '   # or restart it' : ' (or restart it)'}`],
      };
    }
    if (moves.to === 'new' && input.pinnedPhase) {
      return {
        id: step.id,
        what: `restart ${who} unpinned`,
        commands: [
          `# in ${target === undefined || target.configFiles.length === 0 ? 'its config file' : target.configFiles.join(' and ')}: remove [DEFAULT] pin_release_version`,
          signal('TERM'),
          start,
        ],
      };
    }
    return {
      id: step.id,
      what: `restart ${who} with the new code`,
      commands: [signal('TERM'), `${start}   # with the new release's baton`],
    };
  };

  if (newer.length > 0) {
    problems.push(
      `${newer.map((p) => `${p.binary} on ${p.host}`).join(', ')} run(s) service version ${Math.max(...newer.map((p) => p.version))}, newer than this code's ${input.codeVersion}: run the plan with the newest release's baton`,
    );
  } else if (input.schema.state === 'ahead' || input.schema.state === 'modified') {
    problems.push(
      `the schema is ${input.schema.state === 'ahead' ? 'ahead of this code (a newer release upgraded it): run the plan with the newest release' : 'modified: its applied migrations differ from this code'}`,
    );
  } else if (input.schema.state === 'empty' || input.schema.state === 'behind') {
    if (processes.some((p) => p.build !== 'previous')) {
      problems.push(
        'processes of this code are live while the schema is not upgraded: upgrade the schema first',
      );
    }
    next = nextFrom(table[0] as TableStep);
  } else {
    const index = table.findLastIndex((step) => sameTiers(step.tiers, tiers));
    const match = table[index];
    const offTable = `${input.order.map((b) => `${b}: ${tiers[b]}`).join('; ')}`;
    if (match === undefined && input.pinnedPhase && safeMix(processes, input)) {
      // Previous and pinned processes only, every row readable by both: any order is safe.
      note = `the deployment is between steps 0 and 2.2 in an order the table does not list (${offTable}): going back, or restarted out of order; safe, since every process of ${input.release} is pinned to ${input.previousRelease} and every row is at its versions`;
      const forward = table.find(
        (step) =>
          step.moves?.to === 'pinned' &&
          processes.some((p) => p.binary === step.moves?.binary && p.build === 'previous'),
      );
      if (forward !== undefined) next = nextFrom(forward);
    } else if (match === undefined) {
      problems.push(
        `the deployment is at no step of the table: ${offTable} (the rolling upgrade restarts ${input.order.join(' before ')}, pinned to the previous release first, then unpinned in the same order; docs/design.md)`,
      );
    } else if (
      match.id === 'done' &&
      pending === 0 &&
      input.onlineMigrations.every((m) => m.pending !== undefined)
    ) {
      current = 'done';
      complete = true;
    } else if (match.id === 'done') {
      // Every process upgraded, the data not yet: the last restart is done, `done` is next.
      current = table[index - 1]?.id;
      next = nextFrom(match);
    } else {
      current = match.id;
      const after = table[index + 1];
      if (after !== undefined) next = nextFrom(after);
    }
  }

  // A fresh install: this code made the schema, no process of an older release is registered
  // (live or dead), and every row is at the latest versions: nothing to upgrade, not "complete".
  const fresh =
    problems.length === 0 &&
    input.schema.state === 'current' &&
    input.schema.appliedByOlderCode === false &&
    input.processes
      .filter((p) => input.order.includes(p.binary))
      .every(
        (p) =>
          p.version === input.codeVersion &&
          p.pinRelease === undefined &&
          p.capsRelease === undefined,
      ) &&
    (input.rowsBelowLatest ?? 0) === 0 &&
    pending === 0 &&
    input.onlineMigrations.every((m) => m.pending !== undefined);
  if (fresh) {
    return {
      service: input.service,
      fromRelease: input.previousRelease,
      toRelease: input.release,
      processes,
      schema: input.schema.state,
      pendingOnlineMigrations: 0,
      steps: table.map((step) => ({
        id: step.id,
        tiers: step.tiers,
        what: step.what,
        state: 'not needed',
      })),
      current: undefined,
      next: undefined,
      problems,
      note,
      back: undefined,
      complete: false,
      fresh: true,
    };
  }
  const beside = back === undefined ? undefined : previousBesideNewerRows(back);
  if (beside !== undefined) problems.push(beside);
  const currentIndex = current === undefined ? -1 : table.findIndex((s) => s.id === current);
  const steps = table.map((step, i): PlanStep => {
    const state: StepState =
      next !== undefined && step.id === next.id ? 'next' : i <= currentIndex ? 'done' : 'to do';
    return { id: step.id, tiers: step.tiers, what: step.what, state };
  });
  return {
    service: input.service,
    fromRelease: input.previousRelease,
    toRelease: input.release,
    processes,
    schema: input.schema.state,
    pendingOnlineMigrations: pending,
    steps,
    current,
    next,
    problems,
    note,
    back: back === undefined ? undefined : goingBack(back),
    complete,
    fresh: false,
  };
}

/** `its config file`, or the file its services row names last (the one that wins). */
function configFileWords(target: PlannedProcess | undefined): string {
  return target?.configFiles.at(-1) ?? 'its config file';
}

/** Only previous and pinned processes, with nothing the previous release cannot read. */
function safeMix(processes: readonly PlannedProcess[], input: PlanInput): boolean {
  return processes.every((p) => p.build !== 'new') && (input.rowsAbovePrevious ?? []).length === 0;
}

/** The plan for a state read by deployment-state.ts. */
export function planFromState(
  state: DeploymentState,
  service: Pick<ServiceDefinition, 'binaries' | 'upgradeOrder' | 'objectTables' | 'code'>,
  how: Pick<PlanInput, 'databaseArgs' | 'startCommand'>,
): UpgradePlan {
  return planUpgrade({
    service: state.service,
    release: state.release,
    previousRelease: state.previousRelease,
    codeVersion: state.codeVersion,
    releaseOfVersion: state.releaseOfVersion,
    order: service.upgradeOrder ?? service.binaries,
    // Versioned objects are what a pin protects; a service without them has no pinned phase.
    pinnedPhase: service.objectTables.length > 0,
    processes: state.services,
    schema: state.schema,
    onlineMigrations: state.onlineMigrations,
    rowsBelowLatest: rowsBelowLatest(state, service.code.objects),
    ...previousReleaseRows(state),
    ...how,
  });
}

/** Rows at an object version other than the code's latest for their type. */
function rowsBelowLatest(state: DeploymentState, latest: Readonly<Record<string, string>>): number {
  let count = 0;
  for (const counts of state.objectVersions) {
    for (const [version, n] of Object.entries(counts.rows)) {
      if (version !== latest[counts.objectName]) count += n;
    }
  }
  return count;
}

/** The rows the previous release cannot read, and the tables of types it does not know. */
function previousReleaseRows(
  state: DeploymentState,
): Pick<PlanInput, 'rowsAbovePrevious' | 'typesUnknownToPrevious'> {
  const objects = state.previousObjects;
  if (objects === undefined) return {};
  return {
    rowsAbovePrevious: rowsNewerThan(state.objectVersions, (type) => objects[type]?.at(-1)),
    typesUnknownToPrevious: state.objectVersions
      .filter((counts) => objects[counts.objectName] === undefined)
      .map((counts) => ({
        objectName: counts.objectName,
        table: counts.table,
        count: Object.values(counts.rows).reduce((sum, n) => sum + n, 0),
      }))
      .filter((unknown) => unknown.count > 0),
  };
}
