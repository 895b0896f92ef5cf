/**
 * Replays a recorded walk (test/baremetal/support/conductor-walks.ts) against Baton's
 * conductor through the ConductorApi, doing the little the real API does before it calls the
 * conductor (the state machine's pre-check, the power targets it accepts, the configdrive
 * rule, maintenance through update_node), so that what comes back can be compared with what
 * the real Ironic answered and left in the node.
 */

import {
  cannotPerformMessage,
  verbActionableFrom,
} from '../../../../src/baremetal/api/provision-verbs.ts';
import { httpStatusOf } from '../../../../src/baremetal/common/errors.ts';
import type { BaremetalStore } from '../../../../src/baremetal/db/index.ts';
import type { NodeObject } from '../../../../src/baremetal/objects/index.ts';
import type { ConductorApi } from '../../../../src/baremetal/rpcapi/index.ts';
import type { WalkStep } from '../../support/conductor-walks.ts';

export interface StepAnswer {
  readonly status: number;
  readonly body: unknown;
}

const POWER_TARGETS = ['power on', 'power off', 'rebooting', 'soft rebooting', 'soft power off'];

function applyPatch(
  node: NodeObject,
  ops: readonly { op: string; path: string; value?: unknown }[],
) {
  for (const { op, path, value } of ops) {
    const [field, key] = path.slice(1).split('/') as [string, string | undefined];
    if (key === undefined) {
      // As the API does: only a value that changes marks the field changed.
      const next = op === 'remove' ? null : value;
      if (JSON.stringify(node.get(field as never)) !== JSON.stringify(next))
        node.assign(field, next);
    } else {
      const dict = { ...((node.get(field as never) as Record<string, unknown> | null) ?? {}) };
      if (op === 'remove') delete dict[key];
      else dict[key] = value;
      node.assign(field, dict);
    }
  }
}

async function perform(
  api: ConductorApi,
  store: BaremetalStore,
  uuid: string,
  step: WalkStep,
): Promise<StepAnswer> {
  const node = await store.nodes.get(uuid);
  const body = (step.body ?? {}) as Record<string, unknown>;
  const path = step.path.replace('/nodes/{node}', '');
  if (path === '/states/provision') {
    const target = String(body.target);
    if (body.configdrive !== undefined && !['active', 'rebuild'].includes(target)) {
      return {
        status: 400,
        body: 'Adding a config drive is only supported when setting provision state to active, rebuild',
      };
    }
    const state = String(node.get('provision_state'));
    if (!verbActionableFrom(state, target)) {
      return { status: 400, body: cannotPerformMessage(target, uuid, state) };
    }
    if (target === 'active' || target === 'deploy' || target === 'rebuild') {
      await api.doNodeDeploy(node, {
        rebuild: target === 'rebuild',
        ...(body.configdrive === undefined ? {} : { configdrive: body.configdrive }),
      });
    } else if (target === 'deleted' || target === 'undeploy') await api.doNodeTearDown(node);
    else if (target === 'inspect') await api.inspectHardware(node);
    else if (target === 'clean') {
      await api.doNodeClean(
        node,
        body.clean_steps as unknown[],
        body.disable_ramdisk as boolean | undefined,
      );
    } else if (target === 'rescue') await api.doNodeRescue(node, String(body.rescue_password));
    else if (target === 'unrescue') await api.doNodeUnrescue(node);
    else await api.doProvisioningAction(node, target);
    return { status: 202, body: null };
  }
  if (path === '/states/power') {
    const target = String(body.target);
    if (!POWER_TARGETS.includes(target)) {
      return {
        status: 400,
        body: cannotPerformMessage(target, uuid, String(node.get('power_state'))),
      };
    }
    await api.changeNodePowerState(node, target, body.timeout as number | undefined);
    return { status: 202, body: null };
  }
  if (path === '/maintenance') {
    const on = step.method === 'PUT';
    node.set('maintenance', on);
    node.set('maintenance_reason', on ? String(body.reason) : null);
    await api.updateNode(node);
    return { status: 202, body: null };
  }
  if (path === '' && step.method === 'PATCH') {
    applyPatch(node, step.body as never);
    return { status: 200, body: (await api.updateNode(node)).get('uuid') };
  }
  if (path === '' && step.method === 'DELETE') {
    await api.destroyNode(node);
    return { status: 204, body: null };
  }
  if (path === '/management/boot_device' && step.method === 'PUT') {
    await api.setBootDevice(node, String(body.boot_device), body.persistent as boolean | undefined);
    return { status: 204, body: null };
  }
  if (path === '/management/boot_device')
    return { status: 200, body: await api.getBootDevice(node) };
  if (path === '/management/boot_device/supported') {
    return {
      status: 200,
      body: { supported_boot_devices: await api.getSupportedBootDevices(node) },
    };
  }
  if (path === '/validate') return { status: 200, body: await api.validateDriverInterfaces(node) };
  if (path === '/vifs' && step.method === 'POST') {
    await api.vifAttach(node, body);
    return { status: 204, body: null };
  }
  if (path === '/vifs') return { status: 200, body: { vifs: await api.vifList(node) } };
  if (path.startsWith('/vifs/')) {
    await api.vifDetach(node, path.slice('/vifs/'.length));
    return { status: 204, body: null };
  }
  if (path === '/traits' && step.method === 'PUT') {
    await api.addNodeTraits(node, body.traits as string[], true);
    return { status: 204, body: null };
  }
  if (path === '/traits') {
    await api.removeNodeTraits(node);
    return { status: 204, body: null };
  }
  if (path.startsWith('/traits/')) {
    const trait = path.slice('/traits/'.length);
    if (step.method === 'PUT') await api.addNodeTraits(node, [trait]);
    else await api.removeNodeTraits(node, [trait]);
    return { status: 204, body: null };
  }
  throw new Error(`the walk runner does not know ${step.method} ${step.path}`);
}

/** Runs a step; a conductor error becomes its status and message, as the API answers it. */
export async function runStep(
  api: ConductorApi,
  store: BaremetalStore,
  uuid: string,
  step: WalkStep,
): Promise<StepAnswer> {
  try {
    return await perform(api, store, uuid, step);
  } catch (error) {
    const status = httpStatusOf(error);
    if (status === 500) throw error;
    return { status, body: (error as Error).message };
  }
}

const MASKED = ['rescue_password', 'hashed_rescue_password', 'configdrive'];

/** The node fields the fixture records, as the API shows them (secrets masked). */
export function recordedFields(
  node: NodeObject,
  fields: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    let value: unknown = node.get(field as never);
    if (field === 'traits') {
      const list = value as { get(name: 'objects'): { get(name: 'trait'): string }[] } | null;
      value = list === null ? [] : list.get('objects').map((t) => t.get('trait'));
    } else if (field === 'instance_info' && value !== null) {
      value = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [
          k,
          MASKED.includes(k) ? '******' : v,
        ]),
      );
    } else if ((field === 'clean_step' || field === 'deploy_step') && value === null) {
      value = {};
    }
    out[field] = value;
  }
  return out;
}

/** The instance UUID the walks set: kept as it is. */
const WALK_INSTANCE = '7f0d4a2e-3b1b-4c6e-9a55-2f4a6f0b5c11';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Timestamps and node UUIDs replaced, for comparing with the recording. */
export function normalised(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(UUID, (uuid) => (uuid === WALK_INSTANCE ? uuid : '{uuid}'))
      .replace(/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?"/g, '"{time}"'),
  );
}
