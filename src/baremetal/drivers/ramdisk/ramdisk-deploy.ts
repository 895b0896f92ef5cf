/**
 * The `ramdisk` deploy interface (Ironic's `ramdisk.RamdiskDeploy`): the instance is a kernel
 * and ramdisk that the node network-boots, so deploying writes nothing to the node and waits
 * for no agent. Its one deploy step, `deploy` (priority 100), powers the node off, has the boot
 * interface prepare the instance (pxe: fetch the images, write the configuration, PXE boot
 * persistently) and powers it on; the node is then `active`. Tearing down powers it off, and
 * the clean-up removes what the boot interface wrote.
 *
 * validate wants a boot interface with the `ramdisk_boot` capability (pxe has it, fake does
 * not) and runs its validate, as the real one does.
 */
import { InvalidParameterError } from '../../common/errors.ts';
import { ProvisionState as S } from '../../common/provision-states.ts';
import { conductorTask, type DriverStep, type DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { DeployInterface } from '../interfaces/index.ts';
import type { IpmiLog } from '../ipmitool/ipmi-settings.ts';

const DEPLOY_STEPS: readonly DriverStep[] = [
  { interface: 'deploy', step: 'deploy', priority: 100, abortable: false, requiresRamdisk: true },
];

class RamdiskDeploy implements DeployInterface {
  readonly kind = 'deploy' as const;
  readonly name = 'ramdisk';
  readonly deploySteps = DEPLOY_STEPS;
  readonly #log: IpmiLog | undefined;

  constructor(log: IpmiLog | undefined) {
    this.#log = log;
  }

  async validate(task: DriverTask): Promise<void> {
    const { driver } = conductorTask(task, 'ramdisk deploy');
    if (!driver.boot.capabilities?.includes('ramdisk_boot')) {
      throw new InvalidParameterError(
        'Invalid configuration: The boot interface must have the `ramdisk_boot` capability. You are using an incompatible boot interface.',
      );
    }
    await driver.boot.validate(task);
  }

  async prepare(task: DriverTask): Promise<void> {
    const ct = conductorTask(task, 'ramdisk deploy');
    const state = task.node.peek('provision_state');
    if (state === S.DEPLOYING) {
      await ct.driver.network.validate(task);
      await ct.powerAction('power off');
    }
    if (state === S.ACTIVE || state === S.UNRESCUING) await ct.driver.boot.prepareInstance(task);
  }

  async deploy(task: DriverTask): Promise<null> {
    const ct = conductorTask(task, 'ramdisk deploy');
    const uuid = String(task.node.peek('uuid'));
    const instance = (task.node.peek('instance_info') ?? {}) as Record<string, unknown>;
    if (
      'configdrive' in instance &&
      !ct.driver.boot.capabilities?.includes('ramdisk_boot_configdrive')
    ) {
      this.#log?.warn(
        `A configuration drive is present in the ramdisk deployment request of node ${uuid} with boot interface ${ct.driver.boot.name}. The configuration drive will be ignored for this deployment.`,
      );
    }
    await ct.powerAction('power off');
    await ct.driver.boot.prepareInstance(task);
    await ct.powerAction('power on');
    this.#log?.info(`Deployment setup for node ${uuid} done`);
    return null;
  }

  async tearDown(task: DriverTask): Promise<string> {
    await conductorTask(task, 'ramdisk deploy').powerAction('power off');
    return 'deleted';
  }

  async cleanUp(task: DriverTask): Promise<void> {
    const { driver } = conductorTask(task, 'ramdisk deploy');
    await driver.boot.cleanUpRamdisk(task);
    await driver.boot.cleanUpInstance(task);
  }

  /** Nothing more: `prepare` of an active node has written its boot files here again. */
  async takeOver(): Promise<void> {}

  async executeStep(task: DriverTask, step: DriverStep): Promise<string | null> {
    if (step.step === 'deploy') return this.deploy(task);
    throw new InvalidParameterError(`unknown step deploy.${step.step}`);
  }
}

export const ramdiskDeploy: Implementation<'deploy'> = {
  kind: 'deploy',
  name: 'ramdisk',
  className: 'ironic.drivers.modules.ramdisk.RamdiskDeploy',
  properties: {},
  create: (options) => new RamdiskDeploy(options.log),
};
