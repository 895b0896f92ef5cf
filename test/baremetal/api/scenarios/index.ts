/**
 * Request sequences sent to Baton and to the real Ironic alike (real-ironic-api.test.ts). A
 * step names a resource made by an earlier one as `{uuid-N}`: the N-th UUID that appeared in
 * the answers so far, resolved on each side to its own.
 */
import type { Exchange } from '../support/compare.ts';
import { biosHistoryScenarios } from './bios-history.ts';
import { CHASSIS_SCENARIOS } from './chassis.ts';
import { CONDUCTOR_SCENARIOS, DRIVER_SCENARIOS } from './drivers.ts';
import { NODE_STATE_SCENARIOS } from './node-states.ts';
import { NODE_SCENARIOS } from './nodes.ts';
import { PIN_SCENARIOS } from './pin.ts';
import { PIN_ALLOCATION_SCENARIOS } from './pin-allocations.ts';
import { PIN_VOLUME_SCENARIOS } from './pin-volume.ts';
import { PORT_SCENARIOS } from './ports.ts';
import { VERSION_SCENARIOS } from './versions.ts';

export interface Scenario {
  readonly title: string;
  readonly steps: readonly Exchange[];
}

export const SCENARIOS: readonly Scenario[] = [
  ...VERSION_SCENARIOS,
  ...CHASSIS_SCENARIOS,
  ...DRIVER_SCENARIOS,
  ...CONDUCTOR_SCENARIOS,
  ...NODE_SCENARIOS,
  ...NODE_STATE_SCENARIOS,
  ...PORT_SCENARIOS,
  ...PIN_SCENARIOS,
  ...PIN_ALLOCATION_SCENARIOS,
  ...PIN_VOLUME_SCENARIOS,
  // Pinned to zed, BIOS settings and history are served at zed's maximum, 1.80; their rows are
  // kept for the look at their versions (real-ironic-api.test.ts).
  ...biosHistoryScenarios('1.80', '1b', true).map((s) => ({
    ...s,
    title: `pinned to zed: ${s.title}`,
  })),
];
