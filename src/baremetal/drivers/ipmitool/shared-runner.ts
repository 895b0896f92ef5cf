/**
 * The one IpmitoolRunner of a conductor's ipmitool interfaces: power and management are made
 * from the same DriverOptions, and share the runner made for them (so that the interval
 * between two commands to one BMC holds whichever interface sends them).
 */
import type { DriverOptions } from '../implementation.ts';
import { IPMI_DEFAULTS } from './ipmi-settings.ts';
import { IpmitoolRunner } from './ipmitool-runner.ts';

const RUNNERS = new WeakMap<DriverOptions, IpmitoolRunner>();
const SILENT = { info: () => {}, warn: () => {}, error: () => {} };

export function runnerFor(options: DriverOptions): IpmitoolRunner {
  let runner = RUNNERS.get(options);
  if (runner === undefined) {
    runner = new IpmitoolRunner(options.ipmi ?? IPMI_DEFAULTS, options.log ?? SILENT);
    RUNNERS.set(options, runner);
  }
  return runner;
}
