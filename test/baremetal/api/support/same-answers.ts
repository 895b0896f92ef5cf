/**
 * One scenario sent to the real Ironic and to Baton alike: every answer must have the same
 * status, version headers, Allow and Location, and body, once UUIDs (named by order of
 * appearance), timestamps and addresses are set aside (compare.ts).
 */
import assert from 'node:assert/strict';
import type { RealIronic } from '../../../support/real-ironic.ts';
import type { Scenario } from '../scenarios/index.ts';
import type { BatonApi } from './baton-api.ts';
import { differences, Normalizer, send, settle, settleAllocation, type Target } from './compare.ts';

const BATON_BASE = 'http://127.0.0.1:6385';

/** The answer without the body keys Baton leaves out on purpose. */
function without<A extends { body: unknown }>(answer: A, keys: readonly string[] = []): A {
  if (keys.length === 0 || answer.body === null || typeof answer.body !== 'object') return answer;
  const body = { ...(answer.body as Record<string, unknown>) };
  for (const key of keys) delete body[key];
  return { ...answer, body };
}

/**
 * The real service's answer, asked again while it is SQLite's "database is locked" (its own
 * conductor writing at the same moment, on a loaded machine): that 500 rolled back and says
 * nothing of the API's behaviour, so a client would simply try again.
 */
async function sendToReal(target: Target, request: Parameters<typeof send>[1]) {
  for (let attempt = 1; ; attempt++) {
    const answer = await send(target, request);
    const locked =
      answer.status === 500 && JSON.stringify(answer.body).includes('database is locked');
    if (!locked || attempt === 5) return answer;
    await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
  }
}

export async function assertSameAnswers(
  scenario: Scenario,
  real: RealIronic,
  baton: BatonApi,
): Promise<void> {
  const targets: Record<'real' | 'baton', Target> = {
    real: { kind: 'real', base: real.url },
    baton: { kind: 'baton', api: baton, base: BATON_BASE },
  };
  const normalizers = {
    real: new Normalizer(real.url),
    baton: new Normalizer(BATON_BASE),
  };
  for (const [index, exchange] of scenario.steps.entries()) {
    const realAnswer = await sendToReal(targets.real, normalizers.real.resolve(exchange));
    const batonAnswer = await send(targets.baton, normalizers.baton.resolve(exchange));
    const ours = without(normalizers.baton.answer(batonAnswer), exchange.unlike);
    const theirs = without(normalizers.real.answer(realAnswer), exchange.unlike);
    if (exchange.settle !== undefined) {
      await settle(targets.real, normalizers.real.resolve({ path: exchange.settle }).path);
      await settle(targets.baton, normalizers.baton.resolve({ path: exchange.settle }).path);
    }
    if (exchange.settleAllocation !== undefined) {
      const { settleAllocation: named } = exchange;
      await settleAllocation(targets.real, normalizers.real.resolve({ path: named }).path);
      await settleAllocation(targets.baton, normalizers.baton.resolve({ path: named }).path);
    }
    if (exchange.realBug !== undefined) {
      assert.equal(theirs.status, 500, `the real service no longer fails: ${exchange.realBug}`);
      assert.ok(ours.status < 500, `Baton answered ${ours.status}: ${JSON.stringify(ours.body)}`);
      continue;
    }
    const found =
      ours.status === theirs.status
        ? differences(ours, theirs)
        : [
            `status: Baton ${ours.status}, real ${theirs.status}`,
            `real body: ${JSON.stringify(theirs.body).slice(0, 400)}`,
            `Baton body: ${JSON.stringify(ours.body).slice(0, 400)}`,
          ];
    if (found.length > 0) {
      const request = `step ${index + 1}: ${exchange.method ?? 'GET'} ${exchange.path} at ${exchange.version ?? '(none)'}`;
      assert.fail(`${request}:\n  ${found.join('\n  ')}`);
    }
  }
}
