import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { Kysely } from 'kysely';
import {
  findIncompatibleObjectVersions,
  incompatibleObjectVersionsMessage,
} from '../../../src/db/object-versions/index.ts';
import type { Release } from '../../../src/releases/index.ts';
import { forEachBackend } from '../support/backends.ts';

// The release being installed: what it can read.
const NEXT: Release = { objects: { Widget: ['1.1', '1.2'], Gadget: ['2.0'], Sprocket: ['1.0'] } };

const TABLES = [
  { table: 'ov_widgets', objectName: 'Widget' },
  { table: 'ov_gadgets', objectName: 'Gadget' },
  { table: 'ov_missing', objectName: 'Gadget' },
  { table: 'ov_sprockets', objectName: 'Sprocket' },
  { table: 'ov_unlisted', objectName: 'Unlisted' },
  { table: 'ov_legacy', objectName: 'Legacy' },
];

forEachBackend('object versions compatible with a release', (ctx) => {
  // biome-ignore lint/suspicious/noExplicitAny: scratch tables of the test
  const kysely = () => ctx.db().kysely as unknown as Kysely<any>;

  before(async () => {
    for (const table of ['ov_widgets', 'ov_gadgets', 'ov_sprockets', 'ov_unlisted']) {
      await kysely()
        .schema.createTable(table)
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('version', 'varchar(15)')
        .execute();
    }
    await kysely()
      .schema.createTable('ov_legacy')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .execute();
    const versions = ['1.2', '1.0', '1.10', null, '1.1', '1.0', '1.2'];
    await kysely()
      .insertInto('ov_widgets')
      .values(versions.map((version, id) => ({ id, version })))
      .execute();
    await kysely()
      .insertInto('ov_gadgets')
      .values([
        { id: 1, version: '2.0' },
        { id: 2, version: '2.0' },
      ])
      .execute();
    await kysely()
      .insertInto('ov_sprockets')
      .values([{ id: 1, version: null }])
      .execute();
    await kysely()
      .insertInto('ov_unlisted')
      .values([{ id: 1, version: '1.0' }])
      .execute();
    await kysely()
      .insertInto('ov_legacy')
      .values([{ id: 1 }, { id: 2 }])
      .execute();
  });

  test('every unsupported version is counted, NULL included; new models and missing tables skipped', async () => {
    const rows = await findIncompatibleObjectVersions(ctx.db(), {
      tables: TABLES,
      supported: NEXT,
      newModels: ['Sprocket'],
    });
    assert.deepEqual(rows, [
      { table: 'ov_widgets', objectName: 'Widget', version: null, count: 1 },
      { table: 'ov_widgets', objectName: 'Widget', version: '1.0', count: 2 },
      { table: 'ov_widgets', objectName: 'Widget', version: '1.10', count: 1 },
      // A type the release does not list at all: none of its rows is readable.
      { table: 'ov_unlisted', objectName: 'Unlisted', version: '1.0', count: 1 },
      { table: 'ov_legacy', objectName: 'Legacy', version: null, count: 2, noVersionColumn: true },
    ]);
  });

  test('without the new-model exemption, its NULL rows count too', async () => {
    const rows = await findIncompatibleObjectVersions(ctx.db(), {
      tables: [{ table: 'ov_sprockets', objectName: 'Sprocket' }],
      supported: NEXT,
    });
    assert.deepEqual(rows, [
      { table: 'ov_sprockets', objectName: 'Sprocket', version: null, count: 1 },
    ]);
  });

  test('a compatible database gives no rows', async () => {
    const rows = await findIncompatibleObjectVersions(ctx.db(), {
      tables: [{ table: 'ov_gadgets', objectName: 'Gadget' }],
      supported: NEXT,
    });
    assert.deepEqual(rows, []);
  });
});

test('the refusal message names the release, the command and the rows', () => {
  const text = incompatibleObjectVersionsMessage(
    [
      { table: 'nodes', objectName: 'Node', version: null, count: 3 },
      { table: 'nodes', objectName: 'Node', version: '1.13', count: 120 },
      { table: 'ports', objectName: 'Port', version: null, count: 0, noVersionColumn: true },
    ],
    { service: 'baremetal', release: '2026.1' },
  );
  assert.equal(
    text,
    [
      'The database is not compatible with this release of baremetal (2026.1). Please run "baton db online-migrations --service baremetal" using the previous release.',
      'Tables without a version column mean the database is older than the previous release: upgrade one release at a time.',
      '+-------+--------+---------------------+-------+',
      '| table | object | version             | count |',
      '+-------+--------+---------------------+-------+',
      '| nodes | Node   | NULL                |     3 |',
      '| nodes | Node   | 1.13                |   120 |',
      '| ports | Port   | (no version column) |     0 |',
      '+-------+--------+---------------------+-------+',
    ].join('\n'),
  );
});
