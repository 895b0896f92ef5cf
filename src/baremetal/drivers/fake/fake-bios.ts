/**
 * The fake BIOS interface (Ironic's `fake.FakeBIOS`): three clean steps of priority 0 (so run
 * only when a manual clean asks for them), each done after the delay. As the real one,
 * `apply_configuration` makes the node's `bios_settings` rows the settings given (a new name
 * created, a changed value updated with its registry fields cleared, a name not given deleted:
 * BIOSSettingList.sync_node_setting), `factory_reset` deletes them all and
 * `cache_bios_settings` does nothing.
 */
import { pythonStr } from '../../../python-compat/index.ts';
import { InvalidParameterError } from '../../common/errors.ts';
import { BIOSSetting } from '../../objects/index.ts';
import type { DriverStep, DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { BiosInterface } from '../interfaces/index.ts';
import { type DelayRange, fakeSleep } from './fake-delays.ts';

const step = (name: string, argsinfo?: DriverStep['argsinfo']): DriverStep => ({
  interface: 'bios',
  step: name,
  priority: 0,
  abortable: false,
  requiresRamdisk: true,
  ...(argsinfo === undefined ? {} : { argsinfo }),
});

const CLEAN_STEPS: readonly DriverStep[] = [
  step('apply_configuration', {
    settings: {
      description:
        'List of BIOS settings, each item needs to contain a dictionary with name/value pairs',
      required: true,
    },
  }),
  step('cache_bios_settings'),
  step('factory_reset'),
];

class FakeBios implements BiosInterface {
  readonly kind = 'bios' as const;
  readonly name = 'fake';
  readonly cleanSteps = CLEAN_STEPS;
  readonly #delay: DelayRange;

  constructor(delay: DelayRange) {
    this.#delay = delay;
  }

  async validate(): Promise<void> {}

  async applyConfiguration(
    task: DriverTask,
    settings: readonly Readonly<Record<string, unknown>>[],
  ): Promise<null> {
    await fakeSleep(this.#delay);
    const rows = task.biosSettings;
    if (rows === undefined) return null;
    const given = Array.isArray(settings) ? settings : [];
    const current = new Map((await rows.list()).map((s) => [s.get('name'), s.get('value')]));
    const nodeId = String(task.node.get('id'));
    const setting = (item: Readonly<Record<string, unknown>>) =>
      BIOSSetting.create({
        node_id: nodeId,
        name: String(item.name),
        value: item.value === null || item.value === undefined ? null : pythonStr(item.value),
      });
    const created = given.filter((item) => !current.has(String(item.name)));
    const updated = given.filter(
      (item) => current.has(String(item.name)) && current.get(String(item.name)) !== item.value,
    );
    const names = new Set(given.map((item) => String(item.name)));
    const deleted = [...current.keys()].filter((name) => !names.has(name));
    if (created.length > 0) await rows.create(created.map(setting));
    if (updated.length > 0) await rows.update(updated.map(setting));
    if (deleted.length > 0) await rows.delete(deleted);
    return null;
  }

  async factoryReset(task: DriverTask): Promise<null> {
    await fakeSleep(this.#delay);
    const rows = task.biosSettings;
    if (rows === undefined) return null;
    const names = (await rows.list()).map((s) => s.get('name'));
    if (names.length > 0) await rows.delete(names);
    return null;
  }

  cacheBiosSettings(): Promise<void> {
    return fakeSleep(this.#delay);
  }

  async executeStep(
    task: DriverTask,
    { step }: DriverStep,
    args: Readonly<Record<string, unknown>> = {},
  ): Promise<string | null> {
    switch (step) {
      case 'apply_configuration':
        return this.applyConfiguration(
          task,
          (args.settings ?? []) as readonly Readonly<Record<string, unknown>>[],
        );
      case 'factory_reset':
        return this.factoryReset(task);
      case 'cache_bios_settings':
        await this.cacheBiosSettings();
        return null;
      default:
        throw new InvalidParameterError(`unknown step bios.${step}`);
    }
  }
}

export const fakeBios: Implementation<'bios'> = {
  kind: 'bios',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakeBIOS',
  properties: {},
  create: (options) => new FakeBios(options.fake.bios),
};
