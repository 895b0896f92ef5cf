/**
 * The node actions (console, inject NMI, boot mode, secure boot, indicators, vendor passthru)
 * and volume connectors and targets held to the real Ironic 21.4.4, both unpinned and with console `fake` enabled beside
 * `no-console`: the same requests, the same answers (support/same-answers.ts), background work
 * awaited on both sides. Without the real service installed the comparison is skipped with the
 * reason; under CI=true it fails.
 */
import { after, before, describe, it } from 'node:test';
import { STANDALONE_ENABLED_INTERFACES } from '../../../src/baremetal/drivers/enabled-interfaces.ts';
import { FAKE_NO_DELAYS } from '../../../src/baremetal/drivers/fake/fake-delays.ts';
import { type RealIronic, realIronicMissing, startRealIronic } from '../../support/real-ironic.ts';
import { NODE_ACTION_SCENARIOS, TRANSITIONAL_SCENARIOS } from './scenarios/node-actions.ts';
import { VOLUME_SCENARIOS } from './scenarios/volume.ts';
import { type BatonApi, startBatonApi } from './support/baton-api.ts';
import { assertSameAnswers } from './support/same-answers.ts';

const inCi = process.env.CI === 'true';
const missing = realIronicMissing();
if (missing && inCi) throw new Error(`${missing} (CI=true: the real Ironic must run)`);

const CONSOLES = ['fake', 'no-console'];

describe('node actions against the real Ironic 21.4.4, unpinned', { skip: missing }, () => {
  let real: RealIronic;
  let baton: BatonApi;

  before(async () => {
    [real, baton] = await Promise.all([
      startRealIronic({
        config: { DEFAULT: { enabled_console_interfaces: CONSOLES.join(',') } },
      }),
      startBatonApi({
        conductor: {
          enabledInterfaces: { ...STANDALONE_ENABLED_INTERFACES, console: CONSOLES },
        },
      }),
    ]);
  });

  after(async () => {
    await Promise.all([real?.stop(), baton?.close()]);
  });

  for (const scenario of NODE_ACTION_SCENARIOS) {
    it(scenario.title, () => assertSameAnswers(scenario, real, baton));
  }
  // Volume connectors and targets: fake hardware and its noop storage interface.
  for (const scenario of VOLUME_SCENARIOS) {
    it(scenario.title, () => assertSameAnswers(scenario, real, baton));
  }
});

describe('node actions of a transitional node against the real Ironic 21.4.4', {
  skip: missing,
}, () => {
  let real: RealIronic;
  let baton: BatonApi;
  const DELAY = 3;

  before(async () => {
    [real, baton] = await Promise.all([
      startRealIronic({ config: { fake: { deploy_delay: String(DELAY) } } }),
      startBatonApi({
        conductor: {
          fakeDelays: { ...FAKE_NO_DELAYS, deploy: [DELAY, DELAY] },
        },
      }),
    ]);
  });

  after(async () => {
    await Promise.all([real?.stop(), baton?.close()]);
  });

  for (const scenario of TRANSITIONAL_SCENARIOS) {
    it(scenario.title, () => assertSameAnswers(scenario, real, baton));
  }
});
