/**
 * The bare metal schema: the change policy accepts it, it applies on the three backends, and
 * on SQLite it is the real Ironic schema of these tables (made by the real ironic-dbsync),
 * apart from the differences docs/baremetal.md lists.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { VERSIONED_TABLES } from '../../../src/baremetal/db/index.ts';
import { columnCatalog } from '../../../src/baremetal/db/schema-catalog.ts';
import { BAREMETAL_MIGRATIONS } from '../../../src/baremetal/migrations/index.ts';
import {
  checkPolicy,
  checkSchema,
  migrateToLatest,
  openDatabase,
  policyViolations,
} from '../../../src/db/index.ts';
import { PLACEMENT_MIGRATIONS } from '../../../src/placement/migrations/index.ts';
import { forEachBackend } from '../../db/support/backends.ts';
import { createRealIronicSchema, ironicDbsyncUnavailable } from '../support/real-ironic-schema.ts';
import { readSqliteSchema, type TableInfo } from '../support/sqlite-schema.ts';

const TABLES = [
  'chassis',
  'conductors',
  'conductor_hardware_interfaces',
  'nodes',
  'node_traits',
  'node_tags',
  'portgroups',
  'ports',
  'node_inventory',
  'allocations',
  'deploy_templates',
  'deploy_template_steps',
  'bios_settings',
  'node_history',
  'volume_connectors',
  'volume_targets',
];

/**
 * Baton's name of an Ironic table: the services share one database, and Placement's
 * `allocations` came first, so the bare metal one is `baremetal_allocations`.
 */
const BATON_NAMES: Readonly<Record<string, string>> = { allocations: 'baremetal_allocations' };
const batonName = (table: string) => BATON_NAMES[table] ?? table;

/** Column defaults Ironic sets in SQLAlchemy that Baton sets in the table. */
const BATON_DEFAULTS: Record<string, Record<string, string>> = {
  conductors: { online: '1' },
  conductor_hardware_interfaces: { default: '0' },
  nodes: { maintenance: '0', console_enabled: '0' },
  portgroups: { standalone_ports_supported: '1' },
  ports: { pxe_enabled: '1', is_smartnic: '0' },
};

/** What Baton leaves out of real Ironic 21.4's tables (see the migrations). */
function withoutKnownDifferences(table: string, info: TableInfo): TableInfo {
  const columns = { ...info.columns };
  const indexes = { ...info.indexes };
  let foreignKeys = info.foreignKeys;
  if (table === 'nodes') {
    foreignKeys = foreignKeys.filter((k) => !k.startsWith('allocation_id'));
  }
  for (const [column, value] of Object.entries(BATON_DEFAULTS[table] ?? {})) {
    const real = columns[column];
    assert.ok(real, `${table}.${column}`);
    assert.equal(real.default, null, `${table}.${column} has no default in Ironic's table`);
    columns[column] = { ...real, default: value };
  }
  return { ...info, columns, indexes, foreignKeys };
}

describe('bare metal migrations', () => {
  test('the change policy accepts them', () => {
    assert.deepEqual(policyViolations(checkPolicy(BAREMETAL_MIGRATIONS)), []);
  });

  test("every field of a stored type is a column of its table, and every column a field (or the table's own)", () => {
    const catalog = columnCatalog(BAREMETAL_MIGRATIONS);
    /** Columns that are not object fields: the version stamp, and a conductor's online flag. */
    const own: Record<string, string[]> = { conductors: ['online'] };
    /**
     * Fields read from another table (a node's traits; Port and Portgroup's node_uuid, from
     * nodes; a deploy template's steps, rows of deploy_template_steps).
     */
    const joined: Record<string, string[]> = {
      nodes: ['traits'],
      ports: ['node_uuid'],
      portgroups: ['node_uuid'],
      deploy_templates: ['steps'],
    };
    for (const { table, type } of VERSIONED_TABLES) {
      const columns = [...(catalog.get(table)?.keys() ?? [])].sort();
      const fields = type.fieldNames.filter((f) => !(joined[table] ?? []).includes(f));
      assert.deepEqual(columns, [...fields, 'version', ...(own[table] ?? [])].sort(), table);
    }
  });

  describe('against the real Ironic schema (SQLite)', async () => {
    const unavailable = await ironicDbsyncUnavailable();
    if (unavailable !== undefined) {
      test(unavailable, { skip: unavailable }, () => {});
      return;
    }
    let dir = '';
    let real: Awaited<ReturnType<typeof createRealIronicSchema>> | undefined;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'baton-bm-schema-'));
      real = await createRealIronicSchema();
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await real?.drop();
    });

    test('same columns, types, nullability, keys, unique constraints, indexes and foreign keys', async () => {
      const path = join(dir, 'baton.sqlite');
      const db = await openDatabase(`sqlite:${path}`);
      const result = await migrateToLatest(db, BAREMETAL_MIGRATIONS);
      await db.close();
      assert.equal(result.error, undefined);
      const ours = readSqliteSchema(path, TABLES.map(batonName));
      const theirs = readSqliteSchema(real?.path ?? '', TABLES);
      for (const table of TABLES) {
        const a = ours[batonName(table)];
        const b = theirs[table];
        assert.ok(a && b);
        const expected = withoutKnownDifferences(table, b);
        assert.deepEqual(a.columns, expected.columns, `${table} columns`);
        assert.deepEqual(a.primaryKey, expected.primaryKey, `${table} primary key`);
        assert.deepEqual(a.unique, expected.unique, `${table} unique constraints`);
        assert.deepEqual(a.indexes, expected.indexes, `${table} indexes`);
        assert.deepEqual(a.foreignKeys, expected.foreignKeys, `${table} foreign keys`);
        for (const name of expected.constraintNames)
          assert.ok(a.constraintNames.includes(name), `${table} constraint ${name}`);
      }
    });
  });
});

forEachBackend('bare metal migrations', (ctx) => {
  test('apply, leave the schema current, and create every table with its version column', async () => {
    const db = ctx.db();
    const result = await migrateToLatest(db, BAREMETAL_MIGRATIONS);
    assert.equal(result.error, undefined);
    assert.deepEqual(
      result.applied.map((m) => m.id),
      [
        '0001_initial',
        '0002_node_inventory_and_shard',
        '0003_exact_name_collation',
        '0004_allocations_and_deploy_templates',
        '0005_bios_settings_and_node_history',
        '0006_volume_connectors_and_targets',
      ],
    );
    assert.equal((await checkSchema(db, BAREMETAL_MIGRATIONS)).state, 'current');
    const tables = await db.kysely.introspection.getTables();
    for (const table of TABLES) {
      const found = tables.find((t) => t.name === batonName(table));
      assert.ok(found, table);
      assert.ok(
        found.columns.some((c) => c.name === 'version' && c.isNullable),
        `${table}.version`,
      );
    }
  });

  test('the unique constraints hold: a second node named alike is refused', async () => {
    const db = ctx.db();
    const insert = (uuid: string) =>
      sql`insert into nodes (uuid, name, conductor_group) values (${uuid}, 'twin', '')`.execute(
        db.kysely,
      );
    await insert('00000000-0000-0000-0000-000000000001');
    await assert.rejects(insert('00000000-0000-0000-0000-000000000002'));
    const { rows } = await sql<{ maintenance: unknown; protected: unknown }>`
      select maintenance, protected from nodes where name = 'twin'`.execute(db.kysely);
    assert.equal(Number(rows[0]?.maintenance), 0);
    assert.equal(Number(rows[0]?.protected), 0);
  });

  test('a second run applies nothing', async () => {
    const result = await migrateToLatest(ctx.db(), BAREMETAL_MIGRATIONS);
    assert.equal(result.error, undefined);
    assert.deepEqual(result.applied, []);
    assert.equal(result.alreadyApplied, 6);
  });

  test("Placement's migrations apply beside them: the two services share one database", async () => {
    const result = await migrateToLatest(ctx.db(), PLACEMENT_MIGRATIONS);
    assert.equal(result.error, undefined, String(result.error));
    assert.equal((await checkSchema(ctx.db(), PLACEMENT_MIGRATIONS)).state, 'current');
    assert.equal((await checkSchema(ctx.db(), BAREMETAL_MIGRATIONS)).state, 'current');
  });
});
