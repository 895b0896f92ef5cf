import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkPolicy,
  type Deprecation,
  type Migration,
  type Operation,
  type PolicyRule,
  policyViolations,
} from '../../../src/db/index.ts';
import { migration, migrationSet } from './fixtures.ts';

/** A set whose first migration (2026.1) creates `nodes`; `later` follows it. */
function withNodes(later: Migration, deprecations: readonly Deprecation[] = []) {
  const create = migration('0001_nodes', [
    {
      op: 'createTable',
      table: 'nodes',
      columns: [
        { name: 'id', type: 'integer', primaryKey: true, autoIncrement: true },
        { name: 'name', type: 'string(64)', nullable: false },
        { name: 'extra', type: 'json' },
      ],
    },
  ]);
  return migrationSet('policy', [create, later], { deprecations });
}

function rulesOf(later: Migration, deprecations: readonly Deprecation[] = []): PolicyRule[] {
  return policyViolations(checkPolicy(withNodes(later, deprecations))).map((v) => v.rule);
}

const inRelease = (release: string, operations: Operation[], extra: Partial<Migration> = {}) =>
  migration('0002_change', operations, { release, ...extra });

describe('policy: allowed at any time', () => {
  const allowed: [string, Operation[]][] = [
    [
      'a new table, with its keys',
      [
        {
          op: 'createTable',
          table: 'ports',
          columns: [
            { name: 'id', type: 'integer', primaryKey: true },
            { name: 'node_id', type: 'integer', nullable: false },
            { name: 'address', type: 'string(17)', nullable: false },
          ],
          unique: [{ columns: ['address'] }],
          foreignKeys: [{ columns: ['node_id'], references: { table: 'nodes', columns: ['id'] } }],
        },
      ],
    ],
    [
      'a nullable column',
      [{ op: 'addColumn', table: 'nodes', column: { name: 'owner', type: 'string(255)' } }],
    ],
    [
      'a NOT NULL column with a default',
      [
        {
          op: 'addColumn',
          table: 'nodes',
          column: { name: 'version', type: 'string(15)', nullable: false, default: '1.0' },
        },
      ],
    ],
    [
      'a concurrent index on an existing table',
      [
        {
          op: 'createIndex',
          table: 'nodes',
          name: 'nodes_name_idx',
          columns: ['name'],
          concurrently: true,
        },
      ],
    ],
    [
      'any index, key or NOT NULL column on a table created by the same migration',
      [
        {
          op: 'createTable',
          table: 'chassis',
          columns: [{ name: 'id', type: 'integer', primaryKey: true }],
        },
        {
          op: 'addColumn',
          table: 'chassis',
          column: { name: 'uuid', type: 'string(36)', nullable: false },
        },
        {
          op: 'createIndex',
          table: 'chassis',
          name: 'chassis_uuid_idx',
          columns: ['uuid'],
          unique: true,
        },
        {
          op: 'addForeignKey',
          table: 'chassis',
          columns: ['id'],
          references: { table: 'nodes', columns: ['id'] },
        },
      ],
    ],
  ];
  for (const [what, operations] of allowed) {
    test(what, () => {
      const report = checkPolicy(withNodes(inRelease('2026.2', operations)));
      assert.deepEqual(policyViolations(report), []);
      assert.equal(report.ok, true);
      assert.deepEqual(report.migrations[1]?.lockWarnings, []);
    });
  }
});

describe('policy: refused, with what to do instead', () => {
  const refused: [string, Operation, PolicyRule, RegExp][] = [
    [
      'renaming a column',
      { op: 'renameColumn', table: 'nodes', from: 'name', to: 'hostname' },
      'rename-column',
      /add hostname in this release, copy the data with an online migration, deprecate the old one, and drop it two releases later/,
    ],
    [
      'resizing a column',
      { op: 'alterColumn', table: 'nodes', column: 'name', type: 'string(255)', nullable: false },
      'alter-column',
      /add a new column with the new definition, fill it with an online migration/,
    ],
    [
      'changing a type',
      { op: 'alterColumn', table: 'nodes', column: 'extra', type: 'text', nullable: true },
      'alter-column',
      /type, size or nullability of nodes.extra/,
    ],
    [
      'changing nullability',
      { op: 'alterColumn', table: 'nodes', column: 'name', type: 'string(64)', nullable: true },
      'alter-column',
      /breaks the previous release's reads and writes/,
    ],
    [
      'renaming a table',
      { op: 'renameTable', from: 'nodes', to: 'machines' },
      'rename-table',
      /create machines, copy the rows with an online migration/,
    ],
    [
      'dropping a column never deprecated',
      { op: 'dropColumn', table: 'nodes', column: 'extra' },
      'drop-not-deprecated',
      /deprecations: \[\{ table: 'nodes', column: 'extra', release: '<release>' \}\]/,
    ],
    [
      'dropping a table never deprecated',
      { op: 'dropTable', table: 'nodes' },
      'drop-not-deprecated',
      /deprecate it first/,
    ],
    [
      'a NOT NULL column without a default on an existing table',
      {
        op: 'addColumn',
        table: 'nodes',
        column: { name: 'uuid', type: 'string(36)', nullable: false },
      },
      'not-null-without-default',
      /give it a default, or add it nullable and fill it with an online migration/,
    ],
    [
      'a new primary key column on an existing table',
      {
        op: 'addColumn',
        table: 'nodes',
        column: { name: 'pk', type: 'integer', primaryKey: true },
      },
      'not-null-without-default',
      /nodes.pk/,
    ],
  ];
  for (const [what, operation, rule, instead] of refused) {
    test(what, () => {
      const report = checkPolicy(withNodes(inRelease('2026.2', [operation])));
      const violations = policyViolations(report);
      assert.equal(report.ok, false);
      assert.deepEqual(
        violations.map((v) => [v.migration, v.operation, v.rule]),
        [['0002_change', 0, rule]],
      );
      assert.match(violations[0]?.message ?? '', instead);
    });
  }
});

describe('policy: drops wait two releases after the deprecation', () => {
  const dropExtra: Operation = { op: 'dropColumn', table: 'nodes', column: 'extra' };
  const deprecated = [{ table: 'nodes', column: 'extra', release: '2026.2' }];

  test('in the deprecating release: refused', () => {
    assert.deepEqual(rulesOf(inRelease('2026.2', [dropExtra]), deprecated), ['drop-too-early']);
  });

  test('one release later: refused, naming the earliest release allowed', () => {
    const report = checkPolicy(withNodes(inRelease('2027.1', [dropExtra]), deprecated));
    const [violation] = policyViolations(report);
    assert.equal(violation?.rule, 'drop-too-early');
    assert.match(
      violation?.message ?? '',
      /column nodes.extra was deprecated in 2026.2; dropping it in 2027.1 is too early, because code of 2026.2 that still reads it runs during the upgrade to 2027.1: drop it in 2027.2 or later/,
    );
  });

  test('two releases later: allowed', () => {
    assert.deepEqual(rulesOf(inRelease('2027.2', [dropExtra]), deprecated), []);
  });

  test('a deprecated table covers its columns and the table itself', () => {
    const table = [{ table: 'nodes', release: '2026.1' }];
    assert.deepEqual(rulesOf(inRelease('2027.1', [dropExtra]), table), []);
    assert.deepEqual(
      rulesOf(inRelease('2027.1', [{ op: 'dropTable', table: 'nodes' }]), table),
      [],
    );
    assert.deepEqual(rulesOf(inRelease('2026.2', [{ op: 'dropTable', table: 'nodes' }]), table), [
      'drop-too-early',
    ]);
  });

  test('a deprecated column does not cover its table', () => {
    assert.deepEqual(
      rulesOf(inRelease('2027.2', [{ op: 'dropTable', table: 'nodes' }]), deprecated),
      ['drop-not-deprecated'],
    );
  });
});

describe('policy: write locks are flagged, and refused unless acknowledged', () => {
  const addKey: Operation = {
    op: 'addForeignKey',
    table: 'nodes',
    columns: ['id'],
    references: { table: 'chassis', columns: ['id'] },
  };
  const plainIndex: Operation = {
    op: 'createIndex',
    table: 'nodes',
    name: 'nodes_name_idx',
    columns: ['name'],
  };

  test('a foreign key added to an existing table: a PostgreSQL and MariaDB lock', () => {
    const report = checkPolicy(withNodes(inRelease('2026.2', [addKey])));
    const [violation] = policyViolations(report);
    assert.equal(violation?.rule, 'unacknowledged-lock');
    assert.match(
      violation?.message ?? '',
      /acknowledge it with acknowledgeLocks: '<why it is acceptable>' and mention it in the release notes/,
    );
    const [warning] = report.migrations[1]?.lockWarnings ?? [];
    assert.deepEqual(warning?.backends, ['postgresql', 'mysql']);
    assert.equal(warning?.table, 'nodes');
    assert.equal(warning?.acknowledged, undefined);
    assert.match(
      warning?.message ?? '',
      /locks nodes against writes while every row is checked on PostgreSQL, MariaDB/,
    );
  });

  test('a non-concurrent index on an existing table: suggests concurrently', () => {
    const [violation] = policyViolations(checkPolicy(withNodes(inRelease('2026.2', [plainIndex]))));
    assert.equal(violation?.rule, 'unacknowledged-lock');
    assert.match(
      violation?.message ?? '',
      /blocks writes to nodes while it is built on PostgreSQL; set concurrently: true, or acknowledge/,
    );
  });

  test('acknowledged: allowed, and still reported for the release notes', () => {
    const acknowledged = inRelease('2026.2', [addKey, plainIndex], {
      acknowledgeLocks: 'nodes has a few hundred rows',
    });
    const report = checkPolicy(withNodes(acknowledged));
    assert.equal(report.ok, true);
    assert.deepEqual(
      report.migrations[1]?.lockWarnings.map((w) => [w.operation, w.acknowledged]),
      [
        [0, 'nodes has a few hundred rows'],
        [1, 'nodes has a few hundred rows'],
      ],
    );
  });

  test('raw SQL is always flagged with its justification', () => {
    const raw: Operation = {
      op: 'sql',
      sql: { sqlite: null, postgresql: 'create extension if not exists pg_trgm', mysql: null },
      reviewed: 'rloo: an extension, no table is touched',
    };
    const report = checkPolicy(withNodes(inRelease('2026.2', [raw])));
    assert.equal(report.ok, true);
    const [warning] = report.migrations[1]?.lockWarnings ?? [];
    assert.deepEqual(warning?.backends, ['postgresql']);
    assert.equal(warning?.acknowledged, 'rloo: an extension, no table is touched');
    assert.match(warning?.message ?? '', /reviewed: rloo: an extension/);
  });

  test('raw SQL without a review is refused', () => {
    const raw: Operation = { op: 'sql', sql: 'update nodes set extra = null', reviewed: ' ' };
    assert.deepEqual(rulesOf(inRelease('2026.2', [raw])), ['unreviewed-sql']);
  });
});

describe('policy: the set itself', () => {
  test('unknown releases, release order and duplicate ids', () => {
    const a = migration('0001_a', [], { release: '2027.1' });
    const b = migration('0002_b', [], { release: '2026.2' });
    const c = migration('0002_b', [], { release: '2099.1' });
    const report = checkPolicy(
      migrationSet('policy', [a, b, c], { deprecations: [{ table: 't', release: '1999.1' }] }),
    );
    assert.deepEqual(
      policyViolations(report).map((v) => [v.migration, v.rule]),
      [
        [undefined, 'unknown-release'],
        ['0002_b', 'release-order'],
        ['0002_b', 'duplicate-id'],
        ['0002_b', 'unknown-release'],
      ],
    );
  });

  test('definitions portable to every backend', () => {
    const bad = inRelease('2026.2', [
      {
        op: 'createTable',
        table: 'Bad-Name',
        columns: [
          { name: 'id', type: 'string(0)', primaryKey: true, autoIncrement: true },
          { name: 'id', type: 'varchar' as 'text' },
        ],
        foreignKeys: [{ columns: ['id', 'x'], references: { table: 'nodes', columns: ['id'] } }],
      },
      {
        op: 'createTable',
        table: 'baton_schema_migrations',
        columns: [{ name: 'a', type: 'text' }],
      },
      {
        op: 'sql',
        sql: { sqlite: 'select 1', postgresql: '', mysql: null } as never,
        reviewed: 'x',
      },
    ]);
    const messages = policyViolations(checkPolicy(withNodes(bad))).map((v) => v.message);
    for (const expected of [
      /table name 'Bad-Name' is not portable/,
      /declares id twice/,
      /'string\(0\)' is not a valid string type/,
      /unknown column type 'varchar'/,
      /autoIncrement needs an integer or bigint column/,
      /has no column x/,
      /as many referenced columns as columns/,
      /'baton_schema_migrations' is the runner's own table/,
      /the postgresql statement is empty/,
    ]) {
      assert.ok(
        messages.some((m) => expected.test(m)),
        `${expected} in:\n${messages.join('\n')}`,
      );
    }
  });
});
