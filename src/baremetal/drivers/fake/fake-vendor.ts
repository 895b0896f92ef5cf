/**
 * The fake vendor interface (the `fake` entry point is Ironic's `fake.FakeVendorB`): it
 * documents the B1 and B2 driver properties the real one does, and has its three node passthru
 * methods, each POST only, taking one argument `bar` (required: a missing or empty one is the
 * real MissingParameterValue) and answering whether it is the method's word:
 * `second_method` (`kazoo`, in the background), `third_method_sync` (`meow`, answered) and
 * `fourth_method_shared_lock` (`woof`, in the background without taking the node). It has no
 * driver passthru methods.
 */
import { MissingParameterError, VendorPassthruError } from '../../common/errors.ts';
import type { DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { PassthruArgs, VendorInterface, VendorMethod } from '../interfaces/index.ts';
import { type DelayRange, fakeSleep } from './fake-delays.ts';

/** Python's truth value of a JSON value (`if not bar`). */
function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') {
    return false;
  }
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** A FakeVendorB method `(self, task, http_method, bar)`, returning `bar == word`. */
function barMethod(
  name: string,
  word: string,
  delay: DelayRange,
  options: { async: boolean; requireExclusiveLock: boolean },
): VendorMethod {
  return {
    httpMethods: ['POST'],
    async: options.async,
    description: `Test if the value of bar is ${word}`,
    attach: false,
    requireExclusiveLock: options.requireExclusiveLock,
    async call(_task: DriverTask, _httpMethod: string, args: PassthruArgs): Promise<boolean> {
      // Python's call with the body's keys as keyword arguments: any other is a TypeError,
      // which the real passthru decorator wraps in VendorPassthruException.
      const unexpected = Object.keys(args).find((key) => key !== 'bar');
      if (unexpected !== undefined) {
        throw new VendorPassthruError(
          `FakeVendorB.${name}() got an unexpected keyword argument '${unexpected}'`,
        );
      }
      await fakeSleep(delay);
      return args.bar === word;
    },
  };
}

class FakeVendor implements VendorInterface {
  readonly kind = 'vendor' as const;
  readonly name = 'fake';
  readonly vendorRoutes: Readonly<Record<string, VendorMethod>>;
  readonly driverRoutes = {};

  constructor(delay: DelayRange) {
    // In the real order (inspect.getmembers: by name).
    this.vendorRoutes = {
      fourth_method_shared_lock: barMethod('fourth_method_shared_lock', 'woof', delay, {
        async: true,
        requireExclusiveLock: false,
      }),
      second_method: barMethod('second_method', 'kazoo', delay, {
        async: true,
        requireExclusiveLock: true,
      }),
      third_method_sync: barMethod('third_method_sync', 'meow', delay, {
        async: false,
        requireExclusiveLock: true,
      }),
    };
  }

  async validate(_task: DriverTask, method?: string, args: PassthruArgs = {}): Promise<void> {
    if (method === undefined || !Object.hasOwn(this.vendorRoutes, method)) return;
    if (!truthy(args.bar)) {
      throw new MissingParameterError(`Parameter 'bar' not passed to method '${method}'.`);
    }
  }

  async driverValidate(): Promise<void> {}
}

export const fakeVendor: Implementation<'vendor'> = {
  kind: 'vendor',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakeVendorB',
  properties: { B1: 'B1 description. Required.', B2: 'B2 description. Required.' },
  create: (options) => new FakeVendor(options.fake.vendor),
};
