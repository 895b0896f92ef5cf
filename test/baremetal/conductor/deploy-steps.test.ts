/**
 * The deploy steps a deployment runs (conductor/deploy-steps.ts) and the instance traits check
 * (conductor/deploy-templates.ts), on a driver offering the fake deploy step and a BIOS step
 * with a required argument: steps the driver lacks are skipped, arguments and the core step
 * checked with the real texts, duplicates refused, and the user's, the templates' and the
 * driver's steps combined in the real order.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidParameterError } from '../../../src/baremetal/common/errors.ts';
import {
  allDeploymentSteps,
  validatedUserDeploySteps,
  validateUserDeploySteps,
} from '../../../src/baremetal/conductor/deploy-steps.ts';
import { validateInstanceInfoTraits } from '../../../src/baremetal/conductor/deploy-templates.ts';
import type { DriverStep } from '../../../src/baremetal/drivers/base-interface.ts';
import type { NodeDriver } from '../../../src/baremetal/drivers/node-driver.ts';
import { Node, Trait, TraitList } from '../../../src/baremetal/objects/index.ts';

const driverStep = (
  iface: DriverStep['interface'],
  step: string,
  priority: number,
  argsinfo?: DriverStep['argsinfo'],
): DriverStep => ({
  interface: iface,
  step,
  priority,
  abortable: false,
  requiresRamdisk: true,
  ...(argsinfo === undefined ? {} : { argsinfo }),
});

const DRIVER = {
  power: { deploySteps: [] },
  management: { deploySteps: [driverStep('management', 'flash', 50)] },
  deploy: { deploySteps: [driverStep('deploy', 'deploy', 100)] },
  bios: {
    deploySteps: [
      driverStep('bios', 'apply_configuration', 0, {
        settings: { description: 'the settings', required: true },
      }),
    ],
  },
  raid: { deploySteps: [] },
} as unknown as NodeDriver;

const user = (iface: string, step: string, priority: number | string, args = {}) => ({
  interface: iface,
  step,
  args,
  priority,
});

describe('deploy steps', () => {
  test('steps the driver lacks are skipped; known ones are checked with the real texts', () => {
    assert.deepEqual(validateUserDeploySteps(DRIVER, [user('raid', 'nope', 10)]), []);
    assert.throws(
      () => validateUserDeploySteps(DRIVER, [user('bios', 'apply_configuration', 10)], 'P: '),
      (error: unknown) =>
        error instanceof InvalidParameterError &&
        error.message ===
          "P: deploy step {'interface': 'bios', 'step': 'apply_configuration', 'args': {}, 'priority': 10} is missing these required arguments: settings (the settings)",
    );
    assert.throws(
      () => validateUserDeploySteps(DRIVER, [user('deploy', 'deploy', 0, { force: true })]),
      /has these unexpected arguments: force$/,
    );
    assert.throws(
      () => validateUserDeploySteps(DRIVER, [user('deploy', 'deploy', 1)]),
      /deploy step deploy on interface deploy is a core step and cannot be overridden by user steps/,
    );
    assert.throws(
      () =>
        validateUserDeploySteps(DRIVER, [user('deploy', 'deploy', 0), user('deploy', 'deploy', 0)]),
      /Duplicate deploy steps for deploy\.deploy$/,
    );
    // A disabled step needs no arguments.
    assert.equal(
      validateUserDeploySteps(DRIVER, [user('bios', 'apply_configuration', 0)]).length,
      1,
    );
    // The real prefix of the user's own steps has no space before the errors.
    assert.throws(
      () => validatedUserDeploySteps(DRIVER, [user('deploy', 'deploy', 2)]),
      /^InvalidParameterError: Validation of deploy steps from "deploy steps" argument failed\.deploy step|failed\.deploy step/,
    );
  });

  test("the user's steps win over the templates', both over the driver's, highest first", () => {
    const steps = allDeploymentSteps(
      DRIVER,
      [user('bios', 'apply_configuration', 60, { settings: [] })],
      [user('bios', 'apply_configuration', 70, { settings: [1] }), user('management', 'flash', 0)],
    );
    assert.deepEqual(
      steps.map((s) => `${s.interface}.${s.step}:${s.priority}`),
      ['deploy.deploy:100', 'bios.apply_configuration:60'],
    );
    // A template disabling the core step leaves nothing for fake hardware.
    assert.deepEqual(
      allDeploymentSteps(DRIVER, [], [user('deploy', 'deploy', 0), user('management', 'flash', 0)]),
      [],
    );
    // Equal priorities: the interface of higher priority first (management before bios).
    const tie = allDeploymentSteps(
      DRIVER,
      [user('bios', 'apply_configuration', 50, { settings: [] })],
      [],
    );
    assert.deepEqual(
      tie.map((s) => s.interface),
      ['deploy', 'management', 'bios'],
    );
  });
});

describe("a node's instance traits", () => {
  const node = (traits: unknown, own: string[] = ['CUSTOM_A']) =>
    Node.create({
      uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c001',
      instance_info: traits === undefined ? {} : { traits },
      traits: TraitList.create({ objects: own.map((trait) => Trait.create({ trait })) }),
    });

  test('must be a list of strings, each a trait of the node', () => {
    validateInstanceInfoTraits(node(undefined));
    validateInstanceInfoTraits(node([]));
    validateInstanceInfoTraits(node(['CUSTOM_A']));
    assert.throws(
      () => validateInstanceInfoTraits(node('CUSTOM_A')),
      /Error parsing traits from Node 1be26c0b-03f2-4d2e-ae87-c02d7f33c001 instance_info field\. A list of strings is expected\./,
    );
    assert.throws(() => validateInstanceInfoTraits(node([1])), /A list of strings is expected/);
    assert.throws(
      () => validateInstanceInfoTraits(node(['CUSTOM_A', 'CUSTOM_Z'])),
      /Cannot specify instance traits that are not also set on the node\. Node \S+ is missing traits CUSTOM_Z$/,
    );
  });
});
