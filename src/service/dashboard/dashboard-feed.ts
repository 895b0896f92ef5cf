/**
 * The dashboard's feed of one API process: the deployment read from the database (at most
 * once a second, however many pages poll it: reading probes the online migrations), its plan,
 * the processes of the other services sharing the database, the service's items by state,
 * and the rehearsal's status when one runs.
 */
import { type Database, type LivenessOptions, listServices } from '../../db/index.ts';
import { readDeploymentState } from '../deployment-state.ts';
import { NO_CONFIG, type ServiceConfig, type ServiceDefinition } from '../service-definition.ts';
import { planFromState } from '../upgrade-plan.ts';
import {
  type DashboardState,
  dashboardState,
  type OtherService,
  type StateCount,
} from './dashboard-state.ts';
import { readRehearsalStatus } from './rehearsal-status.ts';

export interface DashboardFeedOptions {
  readonly liveness?: LivenessOptions;
  readonly config?: ServiceConfig;
  /** The file `baton rehearse` writes its status to (BATON_REHEARSAL_STATUS). */
  readonly rehearsalStatusPath?: string | undefined;
  /**
   * The processes (`binary host`) that went offline while their row stays: a bare metal
   * conductor leaves the hash ring at once on SIGTERM but keeps its row while it drains.
   */
  readonly offline?: () => Promise<(binary: string, host: string) => boolean>;
  /** How long a state is served again before the database is read anew (default 1 s). */
  readonly maxAgeMs?: number;
  /** The other services whose processes may share the database (shown beside). */
  readonly others?: readonly OtherService[];
  /** The service's items by state, with their errors and maintenance (the bare metal nodes). */
  readonly inventory?: { readonly title: string; read(): Promise<readonly StateCount[]> };
}

export function dashboardFeed(
  db: Database,
  service: ServiceDefinition,
  options: DashboardFeedOptions = {},
): () => Promise<DashboardState> {
  const maxAge = options.maxAgeMs ?? 1000;
  let last: { at: number; state: Promise<DashboardState> } | undefined;
  const read = async (now: number): Promise<DashboardState> => {
    const state = await readDeploymentState(db, service, {
      config: options.config ?? NO_CONFIG,
      ...(options.liveness === undefined ? {} : { liveness: options.liveness }),
    });
    const plan = planFromState(state, service, { databaseArgs: '', startCommand: (b) => b });
    const rehearsal = await readRehearsalStatus(options.rehearsalStatusPath, now);
    const offline = await options.offline?.();
    const rows = options.others === undefined ? [] : await listServices(db, options.liveness);
    const inventory =
      options.inventory === undefined
        ? undefined
        : { title: options.inventory.title, states: await options.inventory.read() };
    return dashboardState(state, plan, service, {
      now,
      rehearsal,
      ...(offline === undefined ? {} : { offline }),
      others: (options.others ?? []).map((other) => ({
        service: other,
        rows: rows.filter((row) => other.binaries.includes(row.binary)),
      })),
      ...(inventory === undefined ? {} : { inventory }),
    });
  };
  return () => {
    const now = Date.now();
    if (last === undefined || now - last.at >= maxAge) {
      const state = read(now);
      last = { at: now, state };
      // A failed read is not served again.
      state.catch(() => {
        if (last?.state === state) last = undefined;
      });
    }
    return last.state;
  };
}
