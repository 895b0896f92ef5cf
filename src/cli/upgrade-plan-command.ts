/**
 * `baton upgrade plan`: the rolling-upgrade table of docs/design.md for the deployment as it stands (the
 * services table, the schema, the online migrations, the rows per object version): what each
 * live process runs, the steps done, and the next one with its commands (docs/operations.md,
 * "Where an upgrade stands"). Reads only; a missing database is the usual error.
 */
import { redactUrl } from '../db/index.ts';
import { renderBoxTable } from '../db/upgrade-check/box-table.ts';
import { releaseLabel, UnknownReleaseError } from '../releases/index.ts';
import {
  capsSummary,
  type DeploymentState,
  planFromState,
  readDeploymentState,
  type ServiceDefinition,
  type UpgradePlan,
} from '../service/index.ts';
import { EXIT, usageError } from './cli-error.ts';
import {
  commandDatabaseUrl,
  type DatabaseOptions,
  databaseFlags,
  withServiceDatabase,
} from './command-context.ts';

export interface UpgradePlanOptions extends DatabaseOptions {
  readonly json?: boolean;
}

/** How each binary is started, for the commands of a step. */
const START_COMMANDS: Readonly<Record<string, string>> = {
  'baremetal-conductor': 'baton baremetal conductor',
  'baremetal-api': 'baton baremetal api',
  'placement-api': 'baton placement serve',
};

function ago(now: number, then: Date): string {
  return `${Math.max(0, Math.round((now - then.getTime()) / 1000))} s ago`;
}

function planAsJson(plan: UpgradePlan, state: DeploymentState, now: number) {
  return {
    service: plan.service,
    fromRelease: plan.fromRelease ?? null,
    toRelease: plan.toRelease,
    schema: { ...state.schema, version: state.schema.version ?? null },
    onlineMigrations: state.onlineMigrations,
    objectVersions: state.objectVersions,
    processes: state.services.map((row) => {
      const planned = plan.processes.find((p) => p.binary === row.binary && p.host === row.host);
      return {
        binary: row.binary,
        host: row.host,
        version: row.version,
        state: row.live ? 'live' : 'dead',
        runs: planned?.runs ?? null,
        build: planned?.build ?? null,
        pin: row.pinRelease ?? null,
        capsRelease: row.capsRelease ?? null,
        heartbeatSecondsAgo: Math.round((now - row.lastSeen.getTime()) / 1000),
        pid: row.pid ?? null,
        machine: row.machine ?? null,
        configFiles: row.configFiles ?? [],
      };
    }),
    steps: plan.steps,
    current: plan.current ?? null,
    next: plan.next ?? null,
    complete: plan.complete,
    fresh: plan.fresh,
    problems: plan.problems,
    note: plan.note ?? null,
    back: plan.back ?? null,
  };
}

function planText(
  plan: UpgradePlan,
  state: DeploymentState,
  service: ServiceDefinition,
  now: number,
): string[] {
  const lines: string[] = [];
  const to = releaseLabel(plan.toRelease);
  lines.push(
    plan.fresh
      ? `${plan.service}: a fresh install of ${to} (service version ${state.codeVersion}): nothing to upgrade; no process of an older release is registered, and every row is at this release's versions`
      : plan.fromRelease === undefined
        ? `${plan.service}: ${to} (service version ${state.codeVersion}), its first release: no rolling upgrade to it`
        : `${plan.service}: rolling upgrade from ${releaseLabel(plan.fromRelease)} ("old" below) to ${to} ("new", service version ${state.codeVersion}; "new pinned": the new code capped at the old release's versions)`,
  );
  const pending = state.onlineMigrations.filter((m) => m.pending !== 0);
  lines.push(
    `schema: ${state.schema.state}${state.schema.version === undefined ? '' : ` at ${state.schema.version}`}` +
      (state.schema.pending.length > 0
        ? `, ${state.schema.pending.length} migration(s) to apply`
        : '') +
      `; online migrations: ${pending.length === 0 ? 'none pending' : pending.map((m) => `${m.name} ${m.pending ?? '?'} row(s)${m.waiting ? ` (${m.waiting})` : ''}`).join(', ')}`,
  );
  for (const counts of state.objectVersions) {
    const rows = Object.entries(counts.rows).map(([version, n]) => `${version}: ${n}`);
    if (rows.length > 0) lines.push(`rows of ${counts.objectName} by version: ${rows.join(', ')}`);
  }
  if (state.services.length === 0) lines.push('processes: none registered');
  else
    lines.push(
      renderBoxTable(
        ['binary', 'host', 'service version', 'runs', 'pid', 'config files', 'heartbeat', 'state'],
        state.services.map((row) => {
          const planned = plan.processes.find(
            (p) => p.binary === row.binary && p.host === row.host,
          );
          return [
            row.binary,
            row.host,
            String(row.version),
            planned?.runs ?? state.releaseOfVersion(row.version) ?? '?',
            row.pid === undefined
              ? '?'
              : `${row.pid}${row.machine === undefined ? '' : ` on ${row.machine}`}`,
            (row.configFiles ?? []).join(', ') || 'none',
            ago(now, row.lastSeen),
            row.live ? 'live' : 'dead',
          ];
        }),
      ),
    );
  lines.push(`a process starting now: ${capsSummary(state.caps, service)}`);
  if (plan.fresh) {
    for (const problem of plan.problems) lines.push(`problem: ${problem}`);
    return lines;
  }
  const binaries = Object.keys(plan.steps[0]?.tiers ?? {});
  lines.push(
    renderBoxTable(
      ['step', ...binaries, 'what', 'state'],
      plan.steps.map((step) => [
        step.id,
        ...binaries.map((binary) => step.tiers[binary] ?? ''),
        step.what,
        step.id === plan.current && !plan.complete ? 'done (now here)' : step.state,
      ]),
    ),
  );
  if (plan.note !== undefined) lines.push(`note: ${plan.note}`);
  for (const problem of plan.problems) lines.push(`problem: ${problem}`);
  if (plan.complete) {
    lines.push(
      `the upgrade to ${plan.toRelease} is complete: every process runs it unpinned, no online migration is pending`,
    );
  } else if (plan.next !== undefined) {
    lines.push(`next: step ${plan.next.id}: ${plan.next.what}`);
    for (const command of plan.next.commands) lines.push(`  ${command}`);
  }
  const back = plan.back;
  if (back !== undefined && !(plan.complete && back.commands.length === 0)) {
    lines.push(
      `going back to ${plan.fromRelease}: ${back.safeNow ? 'safe now' : 'not yet'}: ${back.why}`,
    );
    for (const command of back.commands) lines.push(`  ${command}`);
    for (const note of back.notes) lines.push(`  note: ${note}`);
  }
  return lines;
}

export async function upgradePlan(
  options: UpgradePlanOptions,
  out: (line: string) => void,
): Promise<number> {
  return withServiceDatabase(
    options,
    'existing',
    async (service, db, config) => {
      let state: DeploymentState;
      try {
        state = await readDeploymentState(db, service, { config });
      } catch (error) {
        if (error instanceof UnknownReleaseError) throw usageError(error.message);
        throw error;
      }
      const url = commandDatabaseUrl(options, config);
      const plan = planFromState(state, service, {
        databaseArgs: databaseFlags(options, redactUrl(url)).trim(),
        startCommand: (binary) => START_COMMANDS[binary] ?? `baton ${binary}`,
      });
      const now = Date.now();
      if (options.json) out(JSON.stringify(planAsJson(plan, state, now), null, 2));
      else for (const line of planText(plan, state, service, now)) out(line);
      return EXIT.ok;
    },
    undefined,
    'plan',
  );
}
