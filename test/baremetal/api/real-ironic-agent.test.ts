/**
 * External events (1.54) and the ramdisk agent's lookup and heartbeat (1.22) held to the real
 * Ironic 21.4.4: the same requests, the same answers
 * (support/same-answers.ts). Without the real service installed the comparison is skipped with
 * the reason; under CI=true it fails.
 */
import { after, before, describe, it } from 'node:test';
import { type RealIronic, realIronicMissing, startRealIronic } from '../../support/real-ironic.ts';
import { EVENT_SCENARIOS } from './scenarios/events.ts';
import { RAMDISK_SCENARIOS, RAMDISK_TOKEN_SCENARIO } from './scenarios/ramdisk.ts';
import { type BatonApi, startBatonApi } from './support/baton-api.ts';
import { assertSameAnswers } from './support/same-answers.ts';

const inCi = process.env.CI === 'true';
const missing = realIronicMissing();
if (missing && inCi) throw new Error(`${missing} (CI=true: the real Ironic must run)`);

describe('events and the ramdisk endpoints against the real Ironic 21.4.4', {
  skip: missing,
}, () => {
  let real: RealIronic;
  let baton: BatonApi;

  before(async () => {
    [real, baton] = await Promise.all([startRealIronic(), startBatonApi()]);
  });

  after(async () => {
    await Promise.all([real?.stop(), baton?.close()]);
  });

  for (const scenario of [...EVENT_SCENARIOS, ...RAMDISK_SCENARIOS, RAMDISK_TOKEN_SCENARIO]) {
    it(scenario.title, () => assertSameAnswers(scenario, real, baton));
  }
});
