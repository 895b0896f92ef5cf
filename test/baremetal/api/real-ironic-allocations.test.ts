/**
 * Allocations (1.52–1.60) and deploy templates (1.55) held to the real Ironic 21.4.4, both
 * unpinned: the same requests to both, the same answers (support/same-answers.ts), the
 * conductors' background work (the allocation process, deployments) awaited on both sides
 * before the next step. Without the real service installed the comparison is skipped with
 * the reason; under CI=true it fails.
 */
import { after, before, describe, it } from 'node:test';
import { type RealIronic, realIronicMissing, startRealIronic } from '../../support/real-ironic.ts';
import { ALLOCATION_SCENARIOS } from './scenarios/allocations.ts';
import { DEPLOY_TEMPLATE_SCENARIOS } from './scenarios/deploy-templates.ts';
import { type BatonApi, startBatonApi } from './support/baton-api.ts';
import { assertSameAnswers } from './support/same-answers.ts';

const inCi = process.env.CI === 'true';
const missing = realIronicMissing();
if (missing && inCi) throw new Error(`${missing} (CI=true: the real Ironic must run)`);

describe('allocations and deploy templates against the real Ironic 21.4.4, unpinned', {
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

  for (const scenario of [...ALLOCATION_SCENARIOS, ...DEPLOY_TEMPLATE_SCENARIOS]) {
    it(scenario.title, () => assertSameAnswers(scenario, real, baton));
  }
});
