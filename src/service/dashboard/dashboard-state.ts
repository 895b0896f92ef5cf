/**
 * The dashboard's JSON feed (`/dashboard/state.json`), assembled from a deployment state
 * (deployment-state.ts), its upgrade plan and, during `baton rehearse`, the rehearsal's
 * status: the services with what they run and their heartbeat age, the caps in force, the
 * schema, the online migrations with the share of each object table already at its latest
 * version, and where the upgrade stands. Pure.
 */

import { releaseLabel } from '../../releases/index.ts';
import { capsAsJson } from '../deployment-caps.ts';
import type { DeploymentState } from '../deployment-state.ts';
import type { ServiceDefinition } from '../service-definition.ts';
import type { UpgradePlan } from '../upgrade-plan.ts';
import type { RehearsalStatus } from './rehearsal-status.ts';

export interface DashboardService {
  readonly binary: string;
  readonly host: string;
  readonly version: number;
  /** `zed`, `antelope pinned to zed` …; the release of its version for an offline row. */
  readonly runs: string;
  readonly pin: string | null;
  readonly capsRelease: string | null;
  readonly heartbeatSecondsAgo: number;
  readonly state: 'live' | 'offline';
}

export interface DashboardTable {
  readonly table: string;
  readonly objectName: string;
  readonly latest: string | null;
  readonly rows: number;
  readonly atLatest: number;
}

export interface DashboardState {
  readonly service: string;
  readonly release: string;
  readonly previousRelease: string | null;
  /** The releases as people read them (`2023.1 (antelope)`: src/releases/release-label.ts). */
  readonly releaseLabel: string;
  readonly previousReleaseLabel: string | null;
  readonly generatedAt: string;
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

export function dashboardState(
  state: DeploymentState,
  plan: UpgradePlan,
  service: Pick<ServiceDefinition, 'code' | 'name'>,
  options: {
    readonly now: number;
    readonly rehearsal?: RehearsalStatus | undefined;
    /** Whether a process is offline though its row is live (a draining conductor). */
    readonly offline?: (binary: string, host: string) => boolean;
  },
): DashboardState {
  const latestOf = service.code.objects as Readonly<Record<string, string>>;
  return {
    service: state.service,
    release: state.release,
    previousRelease: state.previousRelease ?? null,
    releaseLabel: releaseLabel(state.release),
    previousReleaseLabel:
      state.previousRelease === undefined ? null : releaseLabel(state.previousRelease),
    generatedAt: new Date(options.now).toISOString(),
    services: state.services.map((row) => {
      const planned = plan.processes.find((p) => p.binary === row.binary && p.host === row.host);
      return {
        binary: row.binary,
        host: row.host,
        version: row.version,
        runs:
          planned?.runs ?? state.releaseOfVersion(row.version) ?? `service version ${row.version}`,
        pin: row.pinRelease ?? null,
        capsRelease: row.capsRelease ?? null,
        heartbeatSecondsAgo: Math.max(0, Math.round((options.now - row.lastSeen.getTime()) / 1000)),
        state: row.live && options.offline?.(row.binary, row.host) !== true ? 'live' : 'offline',
      };
    }),
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
