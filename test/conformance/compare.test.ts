import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Answer, compareAnswers, UuidPairs } from '../../conformance/compare.ts';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';

function answer(body: unknown, headers: Record<string, string> = {}, status = 200): Answer {
  return { status, headers, body, text: JSON.stringify(body) };
}

describe('conformance comparison', () => {
  it('pairs generated uuids once and holds every later sighting to that pairing', () => {
    const pairs = new UuidPairs();
    assert.deepEqual(compareAnswers(answer({ uuid: A }), answer({ uuid: B }), pairs), []);
    assert.deepEqual(
      compareAnswers(
        answer({ href: `/resource_providers/${A}` }),
        answer({ href: `/resource_providers/${B}` }),
        pairs,
      ),
      [],
    );
    const clash = compareAnswers(answer({ uuid: A }), answer({ uuid: C }), pairs);
    assert.deepEqual(clash, [{ where: 'body.uuid', baton: A, real: C }]);
  });

  it('matches object keys that are generated uuids', () => {
    const pairs = new UuidPairs();
    const diff = compareAnswers(
      answer({ allocations: { [A]: { resources: { VCPU: 1 } } } }),
      answer({ allocations: { [B]: { resources: { VCPU: 2 } } } }),
      pairs,
    );
    assert.deepEqual(diff, [{ where: `body.allocations.${A}.resources.VCPU`, baton: 1, real: 2 }]);
  });

  it('reports status, value headers, presence headers and a list in another order', () => {
    const diff = compareAnswers(
      answer([1, 2], { vary: 'OpenStack-API-Version', 'content-type': 'application/json' }, 200),
      answer([2, 1], { 'content-type': 'application/json', 'last-modified': 'x' }, 404),
      new UuidPairs(),
    );
    assert.deepEqual(
      diff.map((d) => d.where),
      ['status', 'header vary', 'header last-modified present', 'body (order only)'],
    );
  });

  it('ignores request ids but not other strings', () => {
    const diff = compareAnswers(
      answer({ request_id: `req-${A}`, title: 'Not Found' }),
      answer({ request_id: `req-${B}`, title: 'Conflict' }),
      new UuidPairs(),
    );
    assert.deepEqual(diff, [{ where: 'body.title', baton: 'Not Found', real: 'Conflict' }]);
  });

  it('calls a list order only when its elements differ only in the order of their own lists', () => {
    const candidate = (mapped: string[], amount: number) => ({
      allocations: { [A]: { resources: { VCPU: amount } } },
      mappings: { '': mapped },
    });
    const reordered = compareAnswers(
      answer([candidate([A, B], 1), candidate([C], 2)]),
      answer([candidate([C], 2), candidate([B, A], 1)]),
      new UuidPairs(),
    );
    assert.deepEqual(
      reordered.map((d) => d.where),
      ['body (order only)'],
    );
    const changed = compareAnswers(
      answer([candidate([A, B], 1), candidate([C], 2)]),
      answer([candidate([C], 2), candidate([B, A], 3)]),
      new UuidPairs(),
    );
    assert.ok(changed.every((d) => !d.where.includes('order only')));
  });
});
