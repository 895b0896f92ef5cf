/**
 * GET /v1/nodes/{node}/validate for a fake-hardware node: one entry per interface kind but
 * vendor, in the real order (core kinds, then optional ones), `{"result": true}` or
 * `{"result": false, "reason": ...}`. The fake implementations and `noop` pass; the `no-*`
 * ones fail as the real ones do. The answer does not change with the microversion.
 */

import type { NodeInterfaces } from './enabled-interfaces.ts';
import { passesValidation, unsupportedExtensionMessage } from './fake-hardware.ts';
import { type InterfaceKind, VALIDATED_INTERFACES } from './interface-kinds.ts';

export type ValidationResult = { result: true } | { result: false; reason: string };

export function validationResults(
  driver: string,
  interfaces: NodeInterfaces,
): Record<Exclude<InterfaceKind, 'vendor'>, ValidationResult> {
  const results = {} as Record<Exclude<InterfaceKind, 'vendor'>, ValidationResult>;
  for (const kind of VALIDATED_INTERFACES) {
    results[kind] = passesValidation(interfaces[`${kind}_interface`])
      ? { result: true }
      : { result: false, reason: unsupportedExtensionMessage(driver, kind) };
  }
  return results;
}
