/**
 * What Ironic's ManagementInterface base class answers for the optional methods an
 * implementation does not override: UnsupportedDriverExtension (400) naming the node's hardware
 * type and the method (`inject_nmi`, `set_boot_mode`...), the real texts.
 */
import { UnsupportedDriverExtensionError } from '../common/errors.ts';
import type { DriverTask } from './base-interface.ts';
import type { SupportedIndicators } from './interfaces/index.ts';

export function unsupportedExtension(task: DriverTask, extension: string): never {
  throw new UnsupportedDriverExtensionError(String(task.node.get('driver')), extension);
}

/** The base class's optional management methods, every one refused. */
export abstract class ManagementBase {
  async injectNmi(task: DriverTask): Promise<void> {
    unsupportedExtension(task, 'inject_nmi');
  }

  async getBootMode(task: DriverTask): Promise<string | null> {
    unsupportedExtension(task, 'get_boot_mode');
  }

  async setBootMode(task: DriverTask, _mode: string): Promise<void> {
    unsupportedExtension(task, 'set_boot_mode');
  }

  async getSecureBootState(task: DriverTask): Promise<boolean> {
    unsupportedExtension(task, 'get_secure_boot_state');
  }

  async setSecureBootState(task: DriverTask, _state: boolean): Promise<void> {
    unsupportedExtension(task, 'set_secure_boot_state');
  }

  async supportedIndicators(task: DriverTask, _component?: string): Promise<SupportedIndicators> {
    unsupportedExtension(task, 'get_supported_indicators');
  }

  async getIndicatorState(
    task: DriverTask,
    _component: string,
    _indicator: string,
  ): Promise<string> {
    unsupportedExtension(task, 'get_indicator_state');
  }

  async setIndicatorState(
    task: DriverTask,
    _component: string,
    _indicator: string,
    _state: string,
  ): Promise<void> {
    unsupportedExtension(task, 'set_indicator_state');
  }
}
