/**
 * A running process's view of its deployment: the caps in force it started with (pin, or the
 * oldest live service's release, or latest), refreshed from the services table on demand
 * (SIGHUP), so caps follow a rolling upgrade without a restart. Nova reads its automatic
 * upgrade levels at start and on SIGHUP alone, not on a timer: a peer that misses heartbeats
 * for a while must not raise the caps behind an operator's back.
 */
import type { Database, LivenessOptions } from '../db/index.ts';
import { type CapsInForce, describeCapsSource, LiveCaps } from '../releases/index.ts';
import { checkDeployment, readDeployment, tooOldMessage } from './deployment-caps.ts';
import type { ServiceDefinition } from './service-definition.ts';

/** Where followDeployment reports changes. */
export interface DeploymentLog {
  /** Reports a change. */
  info(message: string): void;
  /** Reports a problem. */
  warn(message: string): void;
}

/**
 * A deployment followed while the process runs: the caps in force, updated as the services table
 * changes.
 */
export interface LiveDeployment {
  /** The caps in force now; hand it to the stores, serializers and RPC clients. */
  readonly caps: LiveCaps;
  /** Re-reads the services table; the caps change when the oldest live release did. */
  refresh(): Promise<{ readonly caps: CapsInForce; readonly changed: boolean }>;
}

/** The pin in a planned CapsInForce (undefined unless its source is the pin). */
export function pinOf(caps: CapsInForce): string | undefined {
  return caps.source.kind === 'pin' ? caps.release : undefined;
}

/** How the caps read in a log line. */
export function capsLine(caps: CapsInForce): string {
  return `caps in force: ${describeCapsSource(caps)}; RPC cap ${caps.rpcCap ?? 'none'}, API max ${caps.apiMax ?? 'none'}`;
}

/**
 * At start: the deployment's caps for the planned pin, or DeploymentTooOldError naming the
 * live processes this code cannot talk to. `planned` is what the plan resolved (its pin).
 */
export async function followDeployment(
  db: Database,
  service: ServiceDefinition,
  planned: CapsInForce,
  options: { readonly liveness?: LivenessOptions; readonly log: DeploymentLog },
): Promise<LiveDeployment> {
  const pin = pinOf(planned);
  const liveness = options.liveness ?? {};
  const start = await checkDeployment(db, service, pin, liveness);
  const caps = new LiveCaps(start.caps);
  options.log.info(capsLine(start.caps));
  return {
    caps,
    async refresh() {
      const view = await readDeployment(db, service, pin, liveness);
      // A process running already does not stop for an old peer; it says so.
      if (view.tooOld.length > 0) options.log.warn(tooOldMessage(service, view.tooOld));
      const before = caps.current();
      const changed =
        describeCapsSource(before) !== describeCapsSource(view.caps) ||
        before.release !== view.caps.release;
      if (changed) {
        caps.update(view.caps);
        options.log.info(`${capsLine(view.caps)} (were: ${describeCapsSource(before)})`);
      }
      return { caps: view.caps, changed };
    },
  };
}
