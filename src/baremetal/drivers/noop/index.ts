/**
 * The implementations that do nothing: the `no-*` ones refuse (the kind is unavailable), the
 * `noop` ones accept and change nothing (network, storage, management).
 */
import type { AnyImplementation } from '../implementation.ts';
import { noBios } from './no-bios.ts';
import { noConsole } from './no-console.ts';
import { noInspect } from './no-inspect.ts';
import { noRaid } from './no-raid.ts';
import { noRescue } from './no-rescue.ts';
import { noVendor } from './no-vendor.ts';
import { noopManagement } from './noop-management.ts';
import { noopNetwork } from './noop-network.ts';
import { noopStorage } from './noop-storage.ts';

export const NOOP_IMPLEMENTATIONS: readonly AnyImplementation[] = [
  noBios,
  noConsole,
  noInspect,
  noRaid,
  noRescue,
  noVendor,
  noopManagement,
  noopNetwork,
  noopStorage,
];
