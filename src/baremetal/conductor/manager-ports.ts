/**
 * The RPC methods on ports and port groups, under the reservation of their node, with the
 * real manager's checks: a port's MAC address changes only while the node is not active (or
 * in maintenance), its connectivity only in the states that allow it, a port with a VIF bound
 * is not deleted, the ports of a port group share one physical network.
 */
import { ConflictError, InvalidStateError } from '../common/errors.ts';
import { ProvisionState as S } from '../common/provision-states.ts';
import type { PortgroupObject, PortObject } from '../objects/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import type { NodeTask } from './node-task.ts';
import { withNodeTask } from './node-task.ts';

const CONNECTIVITY_FIELDS = [
  'portgroup_id',
  'pxe_enabled',
  'local_link_connection',
  'physical_network',
] as const;

/** The states in which ports and port groups may change how the node is connected. */
const CONNECTIVITY_STATES: readonly string[] = [
  S.ENROLL,
  S.INSPECTING,
  S.INSPECTWAIT,
  S.MANAGEABLE,
];

/** The VIF a port or port group is bound to, and for what (utils.get_attached_vif). */
function attachedVif(port: PortObject): [string, string] | undefined {
  const info = (port.get('internal_info') as Record<string, unknown> | null) ?? {};
  for (const use of ['cleaning', 'provisioning', 'tenant', 'rescuing', 'inspection'] as const) {
    const vif = info[`${use}_vif_port_id`];
    if (typeof vif === 'string' && vif !== '') return [vif, use];
  }
  return undefined;
}

/** utils.validate_port_physnet: a port joins a port group only on its physical network. */
async function validatePortPhysnet(task: NodeTask, port: PortObject): Promise<void> {
  const portgroupId = port.peek('portgroup_id') ?? null;
  if (portgroupId === null) return;
  const delta = port.changedFields();
  if (!delta.has('portgroup_id') && !delta.has('physical_network')) return;
  const members = await task.ctx.store.ports.list({ filters: { portgroup_id: portgroupId } });
  const physnets = new Set(
    members
      .filter((p) => p.get('uuid') !== port.peek('uuid'))
      .map((p) => p.get('physical_network')),
  );
  if (physnets.size === 0) return;
  const [groupPhysnet] = physnets;
  const physnet = port.peek('physical_network') ?? null;
  if (physnet !== groupPhysnet) {
    const portgroup = await task.ctx.store.portgroups.get(portgroupId);
    throw new ConflictError(
      `Port with physical network ${physnet ?? 'None'} cannot become a member of port group ${portgroup.get('uuid')} which has ports in physical network ${groupPhysnet ?? 'None'}.`,
    );
  }
}

export async function createPort(ctx: ConductorContext, port: PortObject): Promise<PortObject> {
  return withNodeTask(
    ctx,
    Number(port.get('node_id')),
    { purpose: 'port create' },
    async (task) => {
      await validatePortPhysnet(task, port);
      return ctx.store.ports.create(port);
    },
  );
}

export async function updatePort(ctx: ConductorContext, port: PortObject): Promise<PortObject> {
  const uuid = port.get('uuid');
  return withNodeTask(
    ctx,
    Number(port.get('node_id')),
    { purpose: 'port update' },
    async (task) => {
      const node = task.node;
      const delta = port.changedFields();
      const maintenance = Boolean(node.get('maintenance'));
      if (
        (task.provisionState === S.ACTIVE || node.get('instance_uuid')) &&
        delta.has('address') &&
        !maintenance
      ) {
        throw new InvalidStateError(
          `Cannot update hardware address for port ${uuid} as node ${task.uuid} is active or has instance UUID assigned`,
        );
      }
      if (
        CONNECTIVITY_FIELDS.some((field) => delta.has(field)) &&
        !(CONNECTIVITY_STATES.includes(task.provisionState) || maintenance)
      ) {
        throw new InvalidStateError(
          `Port ${uuid} can not have any connectivity attributes (${CONNECTIVITY_FIELDS.join(', ')}) updated unless node ${task.uuid} is in a ${CONNECTIVITY_STATES.join(', ')} state or in maintenance mode. The current state is ${task.provisionState}.`,
        );
      }
      await validatePortPhysnet(task, port);
      await task.driver.network.validate(task);
      await task.driver.network.portChanged(task, port);
      return ctx.store.ports.save(port);
    },
  );
}

export async function destroyPort(ctx: ConductorContext, port: PortObject): Promise<void> {
  await withNodeTask(
    ctx,
    Number(port.get('node_id')),
    { purpose: 'port deletion' },
    async (task) => {
      const attached = attachedVif(port);
      if (attached !== undefined && !task.node.get('maintenance')) {
        throw new InvalidStateError(
          `Cannot delete the port ${port.get('uuid')} as it is bound to VIF ${attached[0]} for ${attached[1]} use.`,
        );
      }
      await ctx.store.ports.destroy(String(port.get('uuid')));
    },
  );
}

export async function updatePortgroup(
  ctx: ConductorContext,
  portgroup: PortgroupObject,
): Promise<PortgroupObject> {
  const uuid = portgroup.get('uuid');
  const nodeId = Number(portgroup.get('node_id'));
  return withNodeTask(ctx, nodeId, { purpose: 'update portgroup' }, async (task) => {
    if (portgroup.changedFields().has('node_id')) {
      if (!CONNECTIVITY_STATES.includes(task.provisionState) && !task.node.get('maintenance')) {
        throw new InvalidStateError(
          `Portgroup ${uuid} can not be associated to node ${task.uuid} unless the node is in a ${CONNECTIVITY_STATES.join(', ')} state or in maintenance mode.`,
        );
      }
    }
    await task.driver.network.validate(task);
    await task.driver.network.portgroupChanged(task, portgroup);
    return ctx.store.portgroups.save(portgroup);
  });
}

export async function destroyPortgroup(
  ctx: ConductorContext,
  portgroup: PortgroupObject,
): Promise<void> {
  const nodeId = Number(portgroup.get('node_id'));
  await withNodeTask(ctx, nodeId, { purpose: 'portgroup deletion' }, async () => {
    await ctx.store.portgroups.destroy(String(portgroup.get('uuid')));
  });
}
