/**
 * The dashboard's JSON feed (`/dashboard/state.json`), assembled from a deployment state
 * (deployment-state.ts), its upgrade plan and, during `baton rehearse`, the rehearsal's
 * status: the services with what they run, their heartbeat age and health (the service's own
 * processes, and those of the other services sharing its database: Placement beside the bare
 * metal service under `baton up`), whether the service can do its work, the caps in force, the
 * schema, the online migrations with the share of each object table already at its latest
 * version, the service's items by state (the bare metal nodes), and where the upgrade stands.
 * Pure.
 */

import type { ServiceRecord } from '../../db/index.ts';
import {
  type ReleaseMapping,
  releaseLabel,
  releaseOfServiceVersion,
} from '../../releases/index.ts';
import { capsAsJson } from '../deployment-caps.ts';
import type { DeploymentState } from '../deployment-state.ts';
import type { ServiceDefinition } from '../service-definition.ts';
import type { UpgradePlan } from '../upgrade-plan.ts';
import type { RehearsalStatus } from './rehearsal-status.ts';

export interface DashboardService {
  /** The service the process belongs to (`baremetal`, `placement`). */
  readonly service: string;
  readonly binary: string;
  readonly host: string;
  readonly version: number;
  /** `zed`, `antelope pinned to zed` …; the release of its version for an offline row. */
  readonly runs: string;
  readonly pin: string | null;
  readonly capsRelease: string | null;
  readonly heartbeatSecondsAgo: number;
  readonly state: 'live' | 'offline';
  /** Why it cannot do its work, as its last heartbeat said; null when healthy. */
  readonly health: string | null;
  readonly pid: number | null;
  readonly configFiles: readonly string[];
}

export interface DashboardTable {
  readonly table: string;
  readonly objectName: string;
  readonly latest: string | null;
  readonly rows: number;
  readonly atLatest: number;
}

/** Items (nodes) in one state, and of them those with an error and those in maintenance. */
export interface StateCount {
  readonly state: string;
  readonly count: number;
  readonly errors: number;
  readonly maintenance: number;
}

/**
 * Whether the service can do its work: `ok` (green) when every binary has a live, online,
 * healthy process; `error` (red) when a binary has none or a live process says it cannot work
 * (an API with no conductor online, a conductor without hardware); `warning` (amber) when it
 * can, but a process is offline or the upgrade is off its table.
 */
export interface DashboardStatus {
  readonly level: 'ok' | 'warning' | 'error';
  readonly reasons: readonly string[];
}

export interface DashboardState {
  readonly service: string;
  readonly release: string;
  readonly previousRelease: string | null;
  /** The releases as people read them (`2023.1 (antelope)`: src/releases/release-label.ts). */
  readonly releaseLabel: string;
  readonly previousReleaseLabel: string | null;
  readonly generatedAt: string;
  readonly status: DashboardStatus;
  readonly services: readonly DashboardService[];
  readonly caps: ReturnType<typeof capsAsJson>;
  readonly schema: {
    readonly state: string;
    readonly version: string | null;
    readonly pending: number;
  };
  readonly onlineMigrations: readonly {
    readonly name: string;
    readonly pending: number | null;
    readonly waiting: string | null;
  }[];
  readonly objectTables: readonly DashboardTable[];
  /** The service's items by state (`Nodes`), when it has any to count. */
  readonly inventory: {
    readonly title: string;
    readonly total: number;
    readonly errors: number;
    readonly maintenance: number;
    readonly states: readonly StateCount[];
  } | null;
  readonly upgrade: {
    readonly current: string | null;
    readonly next: { readonly id: string; readonly what: string } | null;
    readonly complete: boolean;
    /** A fresh install: nothing to upgrade (not a finished upgrade). */
    readonly fresh: boolean;
    readonly problems: readonly string[];
  };
  readonly rehearsal: RehearsalStatus | null;
}

/** Another service whose processes share the database (its rows are shown beside). */
export interface OtherService {
  readonly name: string;
  readonly binaries: readonly string[];
  readonly releases: ReleaseMapping;
}

export interface DashboardInput {
  readonly now: number;
  readonly rehearsal?: RehearsalStatus | undefined;
  /** Whether a process is offline though its row is live (a draining conductor). */
  readonly offline?: (binary: string, host: string) => boolean;
  /** The rows of the other services' processes, and which service each is. */
  readonly others?: readonly {
    readonly service: OtherService;
    readonly rows: readonly ServiceRecord[];
  }[];
  readonly inventory?: { readonly title: string; readonly states: readonly StateCount[] };
}

export function dashboardState(
  state: DeploymentState,
  plan: UpgradePlan,
  service: Pick<ServiceDefinition, 'code' | 'name' | 'binaries'>,
  options: DashboardInput,
): DashboardState {
  const latestOf = service.code.objects as Readonly<Record<string, string>>;
  const view = (name: string, row: ServiceRecord, runs: string): DashboardService => ({
    service: name,
    binary: row.binary,
    host: row.host,
    version: row.version,
    runs,
    pin: row.pinRelease ?? null,
    capsRelease: row.capsRelease ?? null,
    heartbeatSecondsAgo: Math.max(0, Math.round((options.now - row.lastSeen.getTime()) / 1000)),
    state: row.live && options.offline?.(row.binary, row.host) !== true ? 'live' : 'offline',
    health: row.health ?? null,
    pid: row.pid ?? null,
    configFiles: row.configFiles ?? [],
  });
  const own = state.services.map((row) => {
    const planned = plan.processes.find((p) => p.binary === row.binary && p.host === row.host);
    return view(
      state.service,
      row,
      planned?.runs ?? state.releaseOfVersion(row.version) ?? `service version ${row.version}`,
    );
  });
  const others = (options.others ?? []).flatMap(({ service: other, rows }) =>
    rows.map((row) =>
      view(
        other.name,
        row,
        releaseOfServiceVersion(other.releases, row.version) ?? `service version ${row.version}`,
      ),
    ),
  );
  const inventory = options.inventory;
  return {
    service: state.service,
    release: state.release,
    previousRelease: state.previousRelease ?? null,
    releaseLabel: releaseLabel(state.release),
    previousReleaseLabel:
      state.previousRelease === undefined ? null : releaseLabel(state.previousRelease),
    generatedAt: new Date(options.now).toISOString(),
    status: statusOf(service.binaries, [...own, ...others], plan),
    services: [...own, ...others],
    caps: capsAsJson(state.caps, service as ServiceDefinition),
    schema: {
      state: state.schema.state,
      version: state.schema.version ?? null,
      pending: state.schema.pending.length,
    },
    onlineMigrations: state.onlineMigrations.map((m) => ({
      name: m.name,
      pending: m.pending ?? null,
      waiting: m.waiting ?? null,
    })),
    objectTables: state.objectVersions.map((counts) => {
      const latest = latestOf[counts.objectName] ?? null;
      const rows = Object.values(counts.rows).reduce((sum, n) => sum + n, 0);
      return {
        table: counts.table,
        objectName: counts.objectName,
        latest,
        rows,
        atLatest: latest === null ? 0 : (counts.rows[latest] ?? 0),
      };
    }),
    inventory:
      inventory === undefined
        ? null
        : {
            title: inventory.title,
            total: sum(inventory.states, 'count'),
            errors: sum(inventory.states, 'errors'),
            maintenance: sum(inventory.states, 'maintenance'),
            states: inventory.states,
          },
    upgrade: {
      current: plan.current ?? null,
      next: plan.next === undefined ? null : { id: plan.next.id, what: plan.next.what },
      complete: plan.complete,
      fresh: plan.fresh,
      problems: plan.problems,
    },
    rehearsal: options.rehearsal ?? null,
  };
}

function sum(states: readonly StateCount[], key: 'count' | 'errors' | 'maintenance'): number {
  return states.reduce((total, s) => total + s[key], 0);
}

/** Red while the service cannot do its work, amber while something is off, else green. */
export function statusOf(
  binaries: readonly string[],
  services: readonly DashboardService[],
  plan: Pick<UpgradePlan, 'problems'>,
): DashboardStatus {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const binary of binaries) {
    if (!services.some((s) => s.binary === binary && s.state === 'live')) {
      errors.push(`no ${binary} is online`);
    }
  }
  for (const s of services) {
    if (s.state === 'live' && s.health !== null)
      errors.push(`${s.binary} on ${s.host}: ${s.health}`);
    // Until it is back, or its row is forgotten (`baton db services --remove-dead`).
    if (s.state === 'offline') warnings.push(`${s.binary} on ${s.host} is offline`);
  }
  warnings.push(...plan.problems);
  if (errors.length > 0) return { level: 'error', reasons: [...errors, ...warnings] };
  if (warnings.length > 0) return { level: 'warning', reasons: warnings };
  return { level: 'ok', reasons: [] };
}
