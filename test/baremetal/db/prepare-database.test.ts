/** Opening the bare metal database for a process. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prepareBaremetalDatabase } from '../../../src/baremetal/db/index.ts';
import { SchemaNotCurrentError } from '../../../src/db/index.ts';
import { forEachBackend } from '../../db/support/backends.ts';

forEachBackend('preparing the bare metal database', (ctx) => {
  test('an empty database is refused with the upgrade command, or given the schema when asked', async () => {
    await assert.rejects(
      prepareBaremetalDatabase(ctx.url()),
      (e: unknown) =>
        e instanceof SchemaNotCurrentError &&
        /baton db upgrade --service baremetal/.test(e.message),
    );
    const db = await prepareBaremetalDatabase(ctx.url(), { createIfEmpty: true });
    try {
      const tables = (await db.kysely.introspection.getTables()).map((t) => t.name);
      assert.ok(tables.includes('nodes') && tables.includes('node_traits'));
    } finally {
      await db.close();
    }
    // Current now: opened without creating anything.
    await (await prepareBaremetalDatabase(ctx.url())).close();
  });
});
