/** Paths as the real Ironic routes them, and list pages' next links as it builds them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listBody } from '../../../src/baremetal/api/collection.ts';
import { ironicPath } from '../../../src/baremetal/api/wsgi-path.ts';

describe('ironicPath', () => {
  it('serves paths without /v1 as /v1, drops a .json suffix and one trailing slash', () => {
    assert.deepEqual(ironicPath('/'), { routed: '/', seen: '/', jsonSuffix: false });
    assert.deepEqual(ironicPath(''), { routed: '/', seen: '/', jsonSuffix: false });
    assert.equal(ironicPath('/v1').routed, '/v1');
    assert.equal(ironicPath('/v1/').routed, '/v1');
    assert.equal(ironicPath('/nodes').routed, '/v1/nodes');
    assert.equal(ironicPath('/v2/nodes').routed, '/v1/v2/nodes');
    assert.equal(ironicPath('/v1/nodes/').routed, '/v1/nodes');
    assert.deepEqual(ironicPath('/v1/nodes/n1.json'), {
      routed: '/v1/nodes/n1',
      seen: '/v1/nodes/n1',
      jsonSuffix: true,
    });
    assert.equal(ironicPath('/v1.json').routed, '/v1');
    assert.equal(ironicPath('/healthcheck').routed, '/healthcheck');
  });

  it('keeps the path as seen for the /detail check (a trailing slash stays there)', () => {
    const path = ironicPath('/v1/nodes/detail/');
    assert.equal(path.routed, '/v1/nodes/detail');
    assert.equal(path.seen.split('/').slice(0, -1).at(-1), 'detail');
  });
});

describe('listBody', () => {
  const base = 'http://h:6385';
  const items = [{ uuid: 'a' }, { uuid: 'b' }];

  it('links a full page with the parameters, the fields, the limit and the last marker', () => {
    const body = listBody('nodes', items, ['a', 'b'], {
      limit: 2,
      url: 'nodes',
      base,
      parameters: [
        ['sort_key', 'id'],
        ['sort_dir', 'asc'],
        ['associated', true],
        ['detail', false],
      ],
      fields: ['uuid', 'name'],
    });
    assert.equal(
      body.next,
      'http://h:6385/v1/nodes?sort_key=id&sort_dir=asc&associated=True&detail=False&fields=uuid,name&limit=2&marker=b',
    );
  });

  it('does not link a short page, an empty one, or one with a limit of 0', () => {
    const options = { url: 'chassis', base, parameters: [] };
    assert.equal(listBody('chassis', items, ['a', 'b'], { ...options, limit: 3 }).next, undefined);
    assert.equal(listBody('chassis', [], [], { ...options, limit: 0 }).next, undefined);
    assert.equal(listBody('chassis', items, ['a', 'b'], { ...options, limit: 0 }).next, undefined);
  });
});
