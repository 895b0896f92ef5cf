/**
 * The service-version spec's gate on `baton db online-migrations`: data migrations write this code's latest
 * object versions, which a live process of an older release cannot read; while one runs, the
 * command refuses (exit 2), naming the processes and the step of the rolling-upgrade doc's rolling upgrade
 * still to do (1.x the conductors, 2.x the APIs: the service's `upgradeOrder`).
 */
import type { Database, LivenessOptions } from '../db/index.ts';
import {
  codeServiceVersion,
  type LiveService,
  servicesThatCannotRead,
  type UnreadableBy,
} from '../releases/index.ts';
import { readDeployment } from './deployment-caps.ts';
import type { ServiceDefinition } from './service-definition.ts';

/** Whether the online migrations may run now. */
export interface OnlineMigrationGate {
  /** Live processes that cannot read what the migrations write; empty: the gate is open. */
  readonly blockers: readonly UnreadableBy[];
  /** Why the gate is closed and what to do; undefined when open. */
  readonly message: string | undefined;
}

/** The step of the rolling-upgrade doc's table still to do for the first binary (in upgrade order) behind. */
export function pendingUpgradeStep(
  service: ServiceDefinition,
  live: readonly LiveService[],
  blockers: readonly UnreadableBy[],
): string {
  const code = codeServiceVersion(service.releases);
  const order = service.upgradeOrder ?? service.binaries;
  const behind = new Set(blockers.map((b) => b.service.binary));
  const index = order.findIndex((binary) => behind.has(binary));
  const binary = order[index] ?? blockers[0]?.service.binary ?? '';
  const ofBinary = live.filter((s) => s.binary === binary);
  const upgraded = ofBinary.filter((s) => s.version >= code).length;
  const step = `${index < 0 ? 1 : index + 1}.${upgraded > 0 ? 2 : 1}`;
  const pin = service.release;
  return (
    `step ${step} of the rolling upgrade is still to do: upgrade the code of every ${binary} ` +
    `(${ofBinary.length - upgraded} of ${ofBinary.length} live still older than ${pin}), ` +
    `pinned while older services run, and the rest of the table after it`
  );
}

/** The message for a closed gate. */
export function gateMessage(
  service: ServiceDefinition,
  live: readonly LiveService[],
  blockers: readonly UnreadableBy[],
): string {
  const who = blockers
    .map(({ service: s, release, objects }) => {
      const unknown =
        objects.length === 0
          ? ''
          : `; does not know ${objects.map((o) => `${o.type} ${o.version}`).join(', ')}`;
      return `${s.binary} on ${s.host} (service version ${s.version}, release ${release ?? 'unknown'}${unknown})`;
    })
    .join(', ');
  return (
    `online data migrations write ${service.name} ${service.release}'s latest object versions, ` +
    `which live services of an older release cannot read: ${who}. ` +
    `${pendingUpgradeStep(service, live, blockers)}; then run this command again ` +
    '(--force runs the migrations anyway)'
  );
}

/** Reads the services table and says whether the migrations may run. */
export async function checkOnlineMigrationGate(
  db: Database,
  service: ServiceDefinition,
  liveness: LivenessOptions = {},
): Promise<OnlineMigrationGate> {
  const { live } = await readDeployment(db, service, undefined, liveness);
  const blockers = servicesThatCannotRead(service.releases, live);
  return {
    blockers,
    message: blockers.length === 0 ? undefined : gateMessage(service, live, blockers),
  };
}
