/**
 * `baton upgrade plan` at each stage of a rolling upgrade of the bare metal service from zed
 * to antelope: the database at zed's schema with zed processes, the schema upgraded, the
 * conductors then the API restarted pinned, then unpinned, the online migrations pending, and
 * done. The processes' rows are written by the registration code the real processes use
 * (registerProcess, with the pin and caps they record), on SQLite, PostgreSQL and MariaDB; the
 * online migrations are run by the real command.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createBaremetalStore } from '../../src/baremetal/db/store.ts';
import type { BaremetalTables } from '../../src/baremetal/db/tables.ts';
import { BAREMETAL_MIGRATIONS } from '../../src/baremetal/migrations/index.ts';
import { Node } from '../../src/baremetal/objects/index.ts';
import { BAREMETAL_SERVICE } from '../../src/baremetal/service.ts';
import { type Database, migrateToLatest, openDatabase } from '../../src/db/index.ts';
import { capsOfRelease } from '../../src/releases/index.ts';
import { type ProcessRegistration, registerProcess } from '../../src/service/index.ts';
import { backendAvailable, createScratchDatabase } from '../db/support/backends.ts';
import { baton } from './support/run-baton.ts';

interface PlanJson {
  current: string | null;
  next: { id: string; what: string; commands: string[] } | null;
  complete: boolean;
  fresh: boolean;
  problems: string[];
  schema: { state: string };
  processes: { binary: string; host: string; runs: string; pin: string | null; state: string }[];
  steps: { id: string; state: string }[];
  onlineMigrations: { name: string; pending: number }[];
}

const ZED_SCHEMA = {
  ...BAREMETAL_MIGRATIONS,
  migrations: BAREMETAL_MIGRATIONS.migrations.filter((m) => m.release === 'zed'),
};

function stages(backend: 'sqlite' | 'postgresql' | 'mysql') {
  describe(`upgrade plan, zed to antelope [${backend}]`, async () => {
    const unavailable = await backendAvailable(backend);
    if (unavailable !== undefined) {
      test(unavailable, { skip: unavailable }, () => {});
      return;
    }
    let scratch: { url: string; drop: () => Promise<void> };
    let db: Database;
    const running = new Map<string, ProcessRegistration>();
    const plan = async (): Promise<PlanJson> => {
      const result = await baton('upgrade', 'plan', '--db', scratch.url, '--json');
      assert.equal(result.status, 0, result.err);
      return JSON.parse(result.out) as PlanJson;
    };
    /** A process (re)started as the real ones register: zed's code records no pin or caps. */
    const start = async (
      binary: 'baremetal-conductor' | 'baremetal-api',
      host: string,
      runs: 'zed' | 'pinned' | 'auto' | 'antelope',
    ) => {
      await running.get(host)?.leave();
      const version = runs === 'zed' ? 1 : 2;
      const caps =
        runs === 'zed'
          ? undefined
          : () => ({
              pin: runs === 'pinned' ? 'zed' : undefined,
              release: runs === 'pinned' || runs === 'auto' ? 'zed' : undefined,
            });
      running.set(
        host,
        await registerProcess(
          db,
          { binary, host, version },
          { warn: () => {}, ...(caps === undefined ? {} : { caps }) },
        ),
      );
    };

    before(async () => {
      scratch = await createScratchDatabase(backend);
      db = await openDatabase(scratch.url);
    });
    after(async () => {
      for (const registration of running.values()) await registration.leave();
      await db.close();
      await scratch.drop();
    });

    test('zed schema, zed processes: step 0 next, the db upgrade command with this database', async () => {
      const migrated = await migrateToLatest(db, ZED_SCHEMA);
      assert.equal(migrated.error, undefined);
      await start('baremetal-conductor', 'c1', 'zed');
      await start('baremetal-conductor', 'c2', 'zed');
      await start('baremetal-api', 'a1', 'zed');
      const now = await plan();
      assert.equal(now.schema.state, 'behind');
      assert.equal(now.current, null);
      assert.equal(now.next?.id, '0');
      assert.equal(
        now.next?.commands[0]?.startsWith(
          `baton db upgrade --service baremetal --db ${scratch.url}`,
        ),
        true,
      );
      assert.deepEqual(
        now.processes.map((p) => `${p.binary} ${p.host} ${p.runs}`),
        ['baremetal-api a1 zed', 'baremetal-conductor c1 zed', 'baremetal-conductor c2 zed'],
      );
    });

    test('schema upgraded: step 0 done, 1.1 next: a conductor restarted pinned to zed', async () => {
      const migrated = await migrateToLatest(db, BAREMETAL_MIGRATIONS);
      assert.equal(migrated.error, undefined);
      // A zed process writes zed's versions: rows the online migrations will bring up.
      const zed = capsOfRelease(BAREMETAL_SERVICE.releases, 'zed', { kind: 'pin' });
      const store = createBaremetalStore(db as unknown as Database<BaremetalTables>, {
        targets: zed.objectTargets,
      });
      await store.nodes.create(Node.create({ driver: 'fake-hardware', name: 'zed-node' }));
      const now = await plan();
      assert.equal(now.current, '0');
      assert.equal(now.next?.id, '1.1');
      assert.match(now.next?.what ?? '', /baremetal-conductor on c1 .*pinned to zed/);
      assert.ok(
        now.next?.commands.includes('# in its config file: [DEFAULT] pin_release_version = zed'),
      );
      assert.ok(
        now.next?.commands.some((c) => c.startsWith('baton baremetal conductor --config-file')),
      );
      assert.deepEqual(now.steps.map((s) => `${s.id}:${s.state}`).slice(0, 3), [
        '0:done',
        '1.1:next',
        '1.2:to do',
      ]);
    });

    test('conductors restarted pinned one by one: 1.1, then 1.2 with the API next', async () => {
      await start('baremetal-conductor', 'c1', 'pinned');
      let now = await plan();
      assert.equal(now.current, '1.1');
      assert.equal(now.next?.id, '1.2');
      assert.match(now.next?.what ?? '', /c2/);
      assert.equal(now.processes.find((p) => p.host === 'c1')?.runs, 'antelope pinned to zed');
      await start('baremetal-conductor', 'c2', 'pinned');
      now = await plan();
      assert.equal(now.current, '1.2');
      assert.equal(now.next?.id, '2.1');
      assert.match(now.next?.what ?? '', /baremetal-api on a1/);
    });

    test('an API unpinned before the conductors are: off the table, said so', async () => {
      await start('baremetal-api', 'a1', 'antelope');
      const now = await plan();
      assert.equal(now.current, null);
      assert.equal(now.next, null);
      assert.match(now.problems.join('\n'), /at no step of the table.*baremetal-api: all new/);
    });

    test('the API pinned: 2.2; conductors unpinned: 3.1, 3.2 (automatic caps lifted by SIGHUP)', async () => {
      await start('baremetal-api', 'a1', 'pinned');
      let now = await plan();
      assert.equal(now.current, '2.2');
      assert.equal(now.next?.id, '3.1');
      assert.ok(
        now.next?.commands.includes('# in its config file: remove [DEFAULT] pin_release_version'),
      );
      await start('baremetal-conductor', 'c1', 'antelope');
      now = await plan();
      assert.equal(now.current, '3.1');
      // c2 restarted without a pin, capped automatically: a reload lifts its caps.
      await start('baremetal-conductor', 'c2', 'auto');
      now = await plan();
      assert.equal(now.current, '3.1');
      assert.equal(
        now.processes.find((p) => p.host === 'c2')?.runs,
        'antelope capped at zed (automatic)',
      );
      assert.match(now.next?.commands[0] ?? '', /^kill -HUP <pid of baremetal-conductor on c2>/);
      await start('baremetal-conductor', 'c2', 'antelope');
      now = await plan();
      assert.equal(now.current, '3.2');
      assert.equal(now.next?.id, '3.3');
    });

    test('every process unpinned, rows at zed versions: 3.4, the online migrations next', async () => {
      await start('baremetal-api', 'a1', 'antelope');
      const now = await plan();
      assert.equal(now.current, '3.4');
      assert.equal(now.next?.id, 'done');
      assert.ok(now.onlineMigrations.some((m) => m.pending > 0));
      assert.deepEqual(now.next?.commands, [
        `baton db online-migrations --service baremetal --db ${scratch.url}`,
        `baton upgrade-check --service baremetal --db ${scratch.url}`,
      ]);
      const text = await baton('upgrade', 'plan', '--db', scratch.url);
      assert.equal(text.status, 0, text.err);
      assert.match(
        text.out,
        /^baremetal: rolling upgrade from zed \("old" below\) to 2023\.1 \(antelope\) \("new", service version/,
      );
      assert.match(text.out, /rows of Node by version: 1\.36: 1/);
      assert.match(text.out, /\| 3\.4 +\| all new +\| all new +\| .*\| done \(now here\)/);
      assert.match(text.out, /next: step done: online data migrations/);
    });

    test('online migrations run: complete, every step done', async () => {
      const migrated = await baton(
        'db',
        'online-migrations',
        '--service',
        'baremetal',
        '--db',
        scratch.url,
      );
      assert.equal(migrated.status, 0, migrated.err + migrated.out);
      const now = await plan();
      assert.equal(now.complete, true);
      // zed's code built the schema's first part: an upgrade, finished, not a fresh install.
      assert.equal(now.fresh, false);
      assert.equal(now.current, 'done');
      assert.equal(now.next, null);
      assert.ok(now.steps.every((s) => s.state === 'done'));
      const text = await baton('upgrade', 'plan', '--db', scratch.url);
      assert.match(text.out, /the upgrade to antelope is complete/);
    });
  });
}

/** Going back from 2.2 and from 3.1, as an operator follows the plan, on a real database. */
function goingBack(backend: 'sqlite' | 'postgresql' | 'mysql') {
  describe(`upgrade plan, going back to zed [${backend}]`, async () => {
    const unavailable = await backendAvailable(backend);
    if (unavailable !== undefined) {
      test(unavailable, { skip: unavailable }, () => {});
      return;
    }
    let scratch: { url: string; drop: () => Promise<void> };
    let db: Database;
    const running = new Map<string, ProcessRegistration>();
    const plan = async () => {
      const result = await baton('upgrade', 'plan', '--db', scratch.url, '--json');
      assert.equal(result.status, 0, result.err);
      return JSON.parse(result.out) as PlanJson & {
        note: string | null;
        back: { safeNow: boolean; why: string; commands: string[] } | null;
      };
    };
    const start = async (
      binary: 'baremetal-conductor' | 'baremetal-api',
      host: string,
      runs: 'zed' | 'pinned' | 'antelope',
    ) => {
      await running.get(host)?.leave();
      const caps =
        runs === 'zed'
          ? undefined
          : () => ({
              pin: runs === 'pinned' ? 'zed' : undefined,
              release: runs === 'pinned' ? 'zed' : undefined,
            });
      running.set(
        host,
        await registerProcess(
          db,
          { binary, host, version: runs === 'zed' ? 1 : 2 },
          { warn: () => {}, ...(caps === undefined ? {} : { caps }) },
        ),
      );
    };
    before(async () => {
      scratch = await createScratchDatabase(backend);
      db = await openDatabase(scratch.url);
      const migrated = await migrateToLatest(db, BAREMETAL_MIGRATIONS);
      assert.equal(migrated.error, undefined);
    });
    after(async () => {
      for (const registration of running.values()) await registration.leave();
      await db.close();
      await scratch.drop();
    });

    test('from 2.2: the API goes back first, then the conductors; any order is recognised', async () => {
      await start('baremetal-conductor', 'c1', 'pinned');
      await start('baremetal-conductor', 'c2', 'pinned');
      await start('baremetal-api', 'a1', 'pinned');
      let now = await plan();
      assert.equal(now.current, '2.2');
      assert.equal(now.back?.safeNow, true);
      assert.equal(now.back?.commands[0], 'kill -TERM <pid of baremetal-api on a1>');
      // A conductor goes back before the API: off the table, and safe.
      await start('baremetal-conductor', 'c2', 'zed');
      now = await plan();
      assert.deepEqual(now.problems, []);
      assert.match(now.note ?? '', /between steps 0 and 2\.2/);
      await start('baremetal-api', 'a1', 'zed');
      now = await plan();
      assert.equal(now.current, '1.1');
      await start('baremetal-conductor', 'c1', 'zed');
      now = await plan();
      assert.equal(now.current, '0');
      assert.match(now.back?.why ?? '', /every process runs zed/);
      const text = await baton('upgrade', 'plan', '--db', scratch.url);
      assert.match(text.out, /going back to zed: safe now: every process runs zed/);
    });

    test('from 3.1: not yet; pinned again and rows rewritten down, then safe', async () => {
      await start('baremetal-conductor', 'c1', 'antelope');
      await start('baremetal-conductor', 'c2', 'pinned');
      await start('baremetal-api', 'a1', 'pinned');
      // The unpinned conductor wrote a node at antelope's version.
      const store = createBaremetalStore(db as unknown as Database<BaremetalTables>, {
        targets: { objectVersion: (_name, latest) => latest },
      });
      await store.nodes.create(
        Node.create({ driver: 'fake-hardware', name: 'antelope-node', shard: 's1' }),
      );
      let now = await plan();
      assert.equal(now.current, '3.1');
      assert.equal(now.back?.safeNow, false);
      assert.match(now.back?.why ?? '', /rows zed cannot read: nodes Node 1\.37: 1 row/);
      assert.equal(
        now.back?.commands.at(-1),
        `baton db downgrade-rows --service baremetal --to zed --db ${scratch.url}   # with antelope's baton, until it exits 0`,
      );
      // Run as the plan says: refused while c1 is unpinned, then done once it is pinned.
      const refused = await baton(
        'db',
        'downgrade-rows',
        '--service',
        'baremetal',
        '--to',
        'zed',
        '--db',
        scratch.url,
      );
      assert.equal(refused.status, 2, refused.out);
      assert.match(refused.err, /baremetal-conductor on c1 \(service version 2, unpinned\)/);
      await start('baremetal-conductor', 'c1', 'pinned');
      const done = await baton(
        'db',
        'downgrade-rows',
        '--service',
        'baremetal',
        '--to',
        'zed',
        '--db',
        scratch.url,
      );
      assert.equal(done.status, 0, done.err);
      now = await plan();
      assert.equal(now.current, '2.2');
      assert.equal(now.back?.safeNow, true);
      const row = await db.kysely
        .selectFrom('nodes' as never)
        .select(['version', 'shard'] as never)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { version: '1.36', shard: 's1' });
    });
  });
}

stages('sqlite');
stages('postgresql');
stages('mysql');
goingBack('sqlite');
goingBack('postgresql');
goingBack('mysql');

test('a missing database is the usual error, and nothing is created', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'upgrade-plan-'));
  try {
    const path = join(dir, 'none', 'baremetal.sqlite');
    const result = await baton('upgrade', 'plan', '--db', `sqlite:${path}`);
    assert.equal(result.status, 1);
    assert.match(
      result.err,
      /^baton: error: .*baremetal\.sqlite.*baton db upgrade --service baremetal/,
    );
    assert.equal(existsSync(join(dir, 'none')), false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('bad flags exit 64', async () => {
  const result = await baton('upgrade', 'plan', '--service', 'nova');
  assert.equal(result.status, 64);
  assert.match(result.err, /^baton: error: /);
});
