/**
 * A field only the new release knows survives every write of a process pinned to the previous
 * release, in the middle of a rolling upgrade (step 3.3: one API unpinned at 1.82, another
 * still pinned to zed at 1.80; step 3.1: a conductor still pinned). The real Ironic 21.4.4, set
 * up with an unpinned API and conductor and a second API pinned to zed, keeps `shard` the same
 * way (its API tier sends objects at their latest version whatever its pin).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createBaremetalStore, LATEST_VERSIONS } from '../../../src/baremetal/db/index.ts';
import { Node } from '../../../src/baremetal/objects/index.ts';
import { BACKENDS, backendAvailable } from '../../db/support/backends.ts';
import { type BatonApi, pinnedCaps, startBatonApi, startSecondApi } from './support/baton-api.ts';

const AT = (version: string) => ({ 'X-OpenStack-Ironic-API-Version': version });

for (const backend of BACKENDS) {
  describe(`fields the pinned side cannot see are kept [${backend}]`, async () => {
    const unavailable = await backendAvailable(backend);
    if (unavailable !== undefined) {
      describe(unavailable, { skip: unavailable }, () => {});
      return;
    }

    describe('step 3.3: an unpinned API and an API pinned to zed, unpinned conductors', () => {
      let baton: BatonApi;
      let pinned: Awaited<ReturnType<typeof startSecondApi>>;
      before(async () => {
        baton = await startBatonApi({ backend });
        pinned = await startSecondApi(baton, pinnedCaps('zed'));
      });
      after(async () => {
        await pinned?.close();
        await baton?.close();
      });

      test('a PATCH through the pinned API keeps the shard set through the unpinned one', async () => {
        const created = await baton.request({
          method: 'POST',
          url: '/v1/nodes',
          headers: AT('1.82'),
          payload: { driver: 'fake-hardware', name: 'sharded-1', shard: 'rack-7' },
        });
        assert.equal(created.statusCode, 201, created.body);
        const patched = await pinned.request({
          method: 'PATCH',
          url: '/v1/nodes/sharded-1',
          headers: AT('1.80'),
          payload: [{ op: 'add', path: '/extra/x', value: 'y' }],
        });
        assert.equal(patched.statusCode, 200, patched.body);
        assert.equal('shard' in patched.json(), false, 'the pinned API does not show shard');
        const shown = (
          await baton.request({ method: 'GET', url: '/v1/nodes/sharded-1', headers: AT('1.82') })
        ).json();
        assert.equal(shown.shard, 'rack-7');
        assert.deepEqual(shown.extra, { x: 'y' });
        const row = await baton.db.kysely
          .selectFrom('nodes')
          .select(['version', 'shard'])
          .where('name', '=', 'sharded-1')
          .executeTakeFirstOrThrow();
        // The unpinned conductor saved it, at its version.
        assert.deepEqual(row, { version: Node.version, shard: 'rack-7' });
      });
    });

    describe('step 3.1: a conductor pinned to zed writes a row that has a shard', () => {
      let baton: BatonApi;
      before(async () => {
        baton = await startBatonApi({ backend, caps: pinnedCaps('zed') });
      });
      after(() => baton?.close());

      test('its save stamps the row at zed and leaves the shard as it was', async () => {
        // Written by an unpinned conductor of the new release earlier.
        const newer = createBaremetalStore(baton.db, { targets: LATEST_VERSIONS });
        const node = await newer.nodes.create(
          Node.create({ driver: 'fake-hardware', name: 'sharded-2', shard: 'rack-9' }),
        );
        const patched = await baton.request({
          method: 'PATCH',
          url: '/v1/nodes/sharded-2',
          headers: AT('1.80'),
          payload: [{ op: 'add', path: '/description', value: 'seen by zed' }],
        });
        assert.equal(patched.statusCode, 200, patched.body);
        const row = await baton.db.kysely
          .selectFrom('nodes')
          .select(['version', 'shard', 'description'])
          .where('name', '=', 'sharded-2')
          .executeTakeFirstOrThrow();
        assert.deepEqual(row, { version: '1.36', shard: 'rack-9', description: 'seen by zed' });
        const read = await newer.nodes.get(String(node.get('uuid')));
        assert.equal(read.get('shard'), 'rack-9');
        assert.equal(read.get('description'), 'seen by zed');
      });
    });
  });
}
