/**
 * The fake deploy interface (Ironic's `fake.FakeDeploy`): its one deploy step, `deploy`
 * (priority 100), is done when it returns; a tear-down leaves the node `deleted`.
 */
import { InvalidParameterError } from '../../common/errors.ts';
import type { DriverStep, DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { DeployInterface } from '../interfaces/index.ts';
import { type DelayRange, fakeSleep } from './fake-delays.ts';

const DEPLOY_STEPS: readonly DriverStep[] = [
  { interface: 'deploy', step: 'deploy', priority: 100, abortable: false, requiresRamdisk: true },
];

class FakeDeploy implements DeployInterface {
  readonly kind = 'deploy' as const;
  readonly name = 'fake';
  readonly deploySteps = DEPLOY_STEPS;
  readonly #delay: DelayRange;

  constructor(delay: DelayRange) {
    this.#delay = delay;
  }

  async validate(): Promise<void> {}

  prepare(): Promise<void> {
    return fakeSleep(this.#delay);
  }

  async deploy(): Promise<null> {
    await fakeSleep(this.#delay);
    return null;
  }

  async tearDown(): Promise<string> {
    await fakeSleep(this.#delay);
    return 'deleted';
  }

  cleanUp(): Promise<void> {
    return fakeSleep(this.#delay);
  }

  takeOver(): Promise<void> {
    return fakeSleep(this.#delay);
  }

  async executeStep(_task: DriverTask, step: DriverStep): Promise<string | null> {
    if (step.step === 'deploy') return this.deploy();
    throw new InvalidParameterError(`unknown step deploy.${step.step}`);
  }
}

export const fakeDeploy: Implementation<'deploy'> = {
  kind: 'deploy',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakeDeploy',
  properties: {},
  create: (options) => new FakeDeploy(options.fake.deploy),
};
