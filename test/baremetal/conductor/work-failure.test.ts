/**
 * Background work that fails without saying why has "Async execution of <work> failed with
 * error: …" recorded in the node's last_error, as the real conductor records it, while the
 * node is still held by the work's task: recorded after the release, it could land on the
 * next operation's node, overwriting what that one wrote (every node write is made under the
 * node's reservation; docs/baremetal.md, "Concurrent updates"). On SQLite, PostgreSQL and
 * MariaDB.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { withNodeTask } from '../../../src/baremetal/conductor/node-task.ts';
import {
  conductorApi,
  forEachConductorBackend,
  localTransports,
  newNode,
  settled,
  startTestConductor,
} from './support/conductor-harness.ts';

forEachConductorBackend('a failed work recorded before its node is let go', (backend) => {
  it('writes the failure while the task still holds the node', async () => {
    const { transport } = localTransports();
    const conductor = await startTestConductor({ url: backend.url(), transport: transport() });
    backend.onCleanup(() => conductor.stop());
    const store = conductor.store;
    const uuid = String((await conductorApi(store, transport()).createNode(newNode())).get('uuid'));
    // What the node says at the moment its reservation is released.
    const atRelease: unknown[] = [];
    const release = store.reservations.release.bind(store.reservations);
    (store.reservations as { release: typeof release }).release = async (host, ident) => {
      atRelease.push((await store.nodes.get(ident)).get('last_error'));
      return release(host, ident);
    };
    await withNodeTask(conductor.conductor.context, uuid, { purpose: 'test' }, async (task) => {
      task.spawnAfter({
        name: 'do_something',
        run: async () => {
          throw new Error('boom');
        },
      });
    });
    const node = await settled(store, uuid);
    const message = 'Async execution of do_something failed with error: boom';
    assert.equal(node.get('last_error'), message);
    assert.deepEqual(atRelease, [message]);
  });
});
