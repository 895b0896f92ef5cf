/**
 * GET /v1/nodes/{node}/validate, the conductor's half (the real
 * `validate_driver_interfaces`): each of the node's interfaces but vendor runs its own
 * `validate`, reported in the real order (core kinds, then optional ones) as `{"result":
 * true}` or `{"result": false, "reason": ...}`. A refusal the real service expects
 * (InvalidParameterValue, UnsupportedDriverExtension) is its message; anything else is
 * reported as the unexpected failure the real one words. The conductor's own checks of a
 * deployment (instance traits, user and template deploy steps) count as the deploy
 * interface's (`deployChecks`), as in the real one.
 */
import { InvalidParameterError, UnsupportedDriverExtensionError } from '../common/errors.ts';
import type { DriverTask } from './base-interface.ts';
import { type InterfaceKind, VALIDATED_INTERFACES } from './interface-kinds.ts';
import type { NodeDriver } from './node-driver.ts';

export type ValidationResult = { result: true } | { result: false; reason: string };
export type ValidationResults = Record<Exclude<InterfaceKind, 'vendor'>, ValidationResult>;

export async function validateInterfaces(
  driver: NodeDriver,
  task: DriverTask,
  host: string,
  deployChecks?: () => Promise<void>,
): Promise<ValidationResults> {
  const results = {} as ValidationResults;
  for (const kind of VALIDATED_INTERFACES) {
    try {
      await driver[kind].validate(task);
      if (kind === 'deploy') await deployChecks?.();
      results[kind] = { result: true };
    } catch (error) {
      const expected =
        error instanceof InvalidParameterError || error instanceof UnsupportedDriverExtensionError;
      const message = error instanceof Error ? error.message : String(error);
      results[kind] = {
        result: false,
        reason: expected
          ? message
          : `Unexpected exception, traceback saved into log by ironic conductor service that is running on ${host}: ${message}`,
      };
    }
  }
  return results;
}
