/**
 * A node's boot mode as the real `boot_mode_utils.get_boot_mode` reads it, for the interfaces
 * whose commands or files differ between UEFI and legacy BIOS (ipmitool's boot device, PXE's
 * configuration template).
 */
import type { NodeObject } from '../objects/index.ts';

/** `capabilities` as the real utils parse them: `key:value,key:value` or a dictionary. */
export function capability(source: unknown, key: string): string | undefined {
  if (source === null || source === undefined) return undefined;
  if (typeof source === 'object') {
    const value = (source as Record<string, unknown>)[key];
    return value === undefined || value === null ? undefined : String(value);
  }
  for (const pair of String(source).split(',')) {
    const [name, value] = pair.split(':');
    if (name?.trim() === key && value !== undefined) return value.trim();
  }
  return undefined;
}

/**
 * boot_mode_utils.get_boot_mode, in short: the instance's `deploy_boot_mode` or `boot_mode`
 * capability, the node's `boot_mode` capability, the boot mode last read from the node, else
 * `[deploy] default_boot_mode` (uefi).
 */
export function bootModeOf(node: NodeObject): string {
  const instance = (node.peek('instance_info') ?? {}) as Record<string, unknown>;
  const properties = (node.peek('properties') ?? {}) as Record<string, unknown>;
  const mode =
    (instance.deploy_boot_mode as string | undefined) ??
    capability(instance.capabilities, 'boot_mode') ??
    capability(properties.capabilities, 'boot_mode') ??
    (node.peek('boot_mode') as string | null | undefined) ??
    'uefi';
  return String(mode).toLowerCase();
}
