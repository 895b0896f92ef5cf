/**
 * A periodic sweep walks every node mapped to its conductor, and a node a newer release wrote
 * at a version this code cannot read is skipped with a warning naming it: it never stops the
 * sweep (power sync, timeouts) for all the others. On the three backends.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodesMappedHere } from '../../../src/baremetal/conductor/node-sweeps.ts';
import {
  forEachConductorBackend,
  localTransports,
  newNode,
  startTestConductor,
} from './support/conductor-harness.ts';

forEachConductorBackend('periodic sweeps over a row too new to read', (ctx) => {
  test('skip that node, name it, and walk the others', async () => {
    const { transport } = localTransports();
    const running = await startTestConductor({ url: ctx.url(), transport: transport() });
    ctx.onCleanup(() => running.stop());
    const warnings: string[] = [];
    const context = {
      ...running.conductor.context,
      log: { ...running.conductor.context.log, warn: (line: string) => warnings.push(line) },
    };
    const nodes = [];
    for (let i = 0; i < 3; i++)
      nodes.push(await running.store.nodes.create(newNode({ name: `sweep-${i}` })));
    const newer = nodes[1]?.get('uuid') as string;
    await running.database.kysely
      .updateTable('nodes')
      .set({ version: '1.99' })
      .where('uuid', '=', newer)
      .execute();
    const seen = await nodesMappedHere(context, {});
    assert.deepEqual(
      seen.map((node) => node.get('name')),
      ['sweep-0', 'sweep-2'],
    );
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0] ?? '',
      new RegExp(`periodic task skips node ${newer}: This Node was written by a newer release`),
    );
    // The API's list, by contrast, refuses to show part of a page: a 503 saying why.
    await assert.rejects(running.store.nodes.list({}), /written by a newer release/);
  });
});
