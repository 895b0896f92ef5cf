/**
 * What a conductor process reports of itself: its gauges (nodes by provision state, its busy
 * workers) and its health, which says when it cannot act on nodes although it runs (no
 * hardware registered, not online in the conductors table).
 */
import type { ProcessOperations } from '../../service/process-operations.ts';
import type { RunningConductor } from './conductor-process.ts';

export function addConductorGauges(ops: ProcessOperations, conductor: RunningConductor): void {
  ops.metrics?.process.addCollectedGauge({
    name: 'baton_baremetal_nodes',
    help: 'Nodes by provision state.',
    labelNames: ['provision_state'],
    collect: async () =>
      (await conductor.store.nodes.countByProvisionState()).map(({ state, count }) => ({
        labels: { provision_state: state },
        value: count,
      })),
  });
  ops.metrics?.process.addCollectedGauge({
    name: 'baton_baremetal_conductor_workers_busy',
    help: "Background operations running in this conductor's worker pool.",
    labelNames: [],
    collect: async () => [{ labels: {}, value: conductor.context.pool.busy }],
  });
}

/** Why a conductor cannot act on nodes now: no hardware registered, or not online. */
export async function conductorHealth(conductor: RunningConductor): Promise<string | undefined> {
  const { store, settings, conductorId } = conductor.context;
  if (conductor.context.stopping) return undefined;
  const online = await store.conductors.active(settings.heartbeatTimeout);
  if (!online.includes(settings.host)) return 'not online in the conductors table';
  if (conductorId === undefined) return 'not registered';
  const interfaces = await store.conductors.listHardwareInterfaces(conductorId);
  if (interfaces.length === 0) return 'no hardware interfaces registered: it cannot act on nodes';
  return undefined;
}
