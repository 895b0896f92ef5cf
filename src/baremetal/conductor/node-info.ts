/**
 * The bookkeeping a conductor does on a node's dict fields, as the real one does it
 * (ironic/conductor/utils.py): `driver_internal_info` keys set and removed (a key set again
 * keeps its place, a new one goes last, as Python dicts keep order), the wipes that follow a
 * deploy, a clean or a power-off, the image type a deploy or adoption infers from
 * `instance_info`, and `last_error` recorded for the user.
 */
import type { NodeObject } from '../objects/index.ts';

type Info = Record<string, unknown>;

function dictOf(node: NodeObject, field: 'driver_internal_info' | 'instance_info'): Info {
  return { ...((node.get(field) as Info | null) ?? {}) };
}

export function internalInfo(node: NodeObject): Readonly<Info> {
  return dictOf(node, 'driver_internal_info');
}

export function setInternalInfo(node: NodeObject, key: string, value: unknown): void {
  const info = dictOf(node, 'driver_internal_info');
  info[key] = value;
  node.set('driver_internal_info', info);
}

export function deleteInternalInfo(node: NodeObject, ...keys: string[]): void {
  const info = dictOf(node, 'driver_internal_info');
  if (!keys.some((key) => Object.hasOwn(info, key))) return;
  for (const key of keys) delete info[key];
  node.set('driver_internal_info', info);
}

export function setInstanceInfo(node: NodeObject, key: string, value: unknown): void {
  const info = dictOf(node, 'instance_info');
  info[key] = value;
  node.set('instance_info', info);
}

export function deleteInstanceInfo(node: NodeObject, ...keys: string[]): void {
  const info = dictOf(node, 'instance_info');
  if (!keys.some((key) => Object.hasOwn(info, key))) return;
  for (const key of keys) delete info[key];
  node.set('instance_info', info);
}

/** Python's `datetime.isoformat()` of a UTC time (microseconds, left out when zero). */
export function pythonIsoformat(date: Date): string {
  const text = date.toISOString().replace('Z', '');
  const [seconds, millis] = text.split('.') as [string, string];
  return millis === '000' ? seconds : `${seconds}.${millis}000`;
}

/** `timestamp_driver_internal_info(key)`: the time now, as the real one writes it. */
export function stampInternalInfo(node: NodeObject, key: string, now: Date): void {
  setInternalInfo(node, key, pythonIsoformat(now));
}

/** node_history_record(..., error=True): what the user sees is last_error. */
export function recordError(node: NodeObject, message: string): void {
  node.set('last_error', message);
}

/** wipe_token_and_url. */
export function wipeTokenAndUrl(node: NodeObject): void {
  deleteInternalInfo(
    node,
    'agent_secret_token',
    'agent_secret_token_pregenerated',
    'agent_url',
    'agent_verify_ca',
  );
}

/**
 * wipe_deploy_internal_info; `fastTrackAble` (agent-token.ts) keeps the agent's token and URL
 * for the next operation.
 */
export function wipeDeployInternalInfo(node: NodeObject, fastTrackAble: boolean): void {
  if (!fastTrackAble) wipeTokenAndUrl(node);
  setInternalInfo(node, 'deploy_steps', null);
  deleteInternalInfo(
    node,
    'user_deploy_steps',
    'agent_cached_deploy_steps',
    'deploy_step_index',
    'deployment_reboot',
    'deployment_polling',
    'skip_current_deploy_step',
    'steps_validated',
  );
}

/** wipe_cleaning_internal_info; the token and URL kept as by wipeDeployInternalInfo. */
export function wipeCleaningInternalInfo(node: NodeObject, fastTrackAble: boolean): void {
  if (!fastTrackAble) wipeTokenAndUrl(node);
  setInternalInfo(node, 'clean_steps', null);
  deleteInternalInfo(
    node,
    'agent_cached_clean_steps',
    'clean_step_index',
    'cleaning_reboot',
    'cleaning_polling',
    'cleaning_disable_ramdisk',
    'skip_current_clean_step',
    'steps_validated',
  );
}

/** wipe_internal_info_on_power_off. */
export function wipeInternalInfoOnPowerOff(node: NodeObject): void {
  const info = internalInfo(node);
  deleteInternalInfo(node, 'agent_url');
  if (!info.agent_secret_token_pregenerated) deleteInternalInfo(node, 'agent_secret_token');
  deleteInternalInfo(
    node,
    'agent_cached_deploy_steps',
    'agent_cached_clean_steps',
    'agent_verify_ca',
  );
}

const GLANCE_ID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * update_image_type: from `instance_info`, whether the image is a whole-disk one, kept in
 * `driver_internal_info.is_whole_disk_image` and `instance_info.image_type`. A Glance image
 * (a UUID or `glance://`) would need Glance, which this release does not talk to: it is left
 * undecided, as the real one does when Glance cannot answer. Returns whether it changed.
 */
export function updateImageType(node: NodeObject): boolean {
  const instance = dictOf(node, 'instance_info');
  const source = instance.image_source;
  if (typeof source !== 'string' || source === '') return false;
  let wholeDisk: boolean;
  if (typeof instance.image_type === 'string' && instance.image_type !== '') {
    wholeDisk = instance.image_type !== 'partition';
  } else if (GLANCE_ID.test(source) || source.startsWith('glance://')) {
    return false;
  } else {
    wholeDisk = !instance.kernel && !instance.ramdisk;
  }
  setInternalInfo(node, 'is_whole_disk_image', wholeDisk);
  if (!instance.image_type)
    setInstanceInfo(node, 'image_type', wholeDisk ? 'whole-disk' : 'partition');
  return true;
}

/** Python's repr() of JSON-like data, as the real messages print steps and dicts. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(value);
  if (typeof value === 'string') {
    if (value.includes("'") && !value.includes('"')) return `"${value}"`;
    return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;
  }
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
}
