/** The `baton db …` and `baton upgrade-check` commands, run in-process on each backend. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { registerService } from '../../src/db/index.ts';
import { forEachBackend } from '../db/support/backends.ts';
import { baton } from './support/run-baton.ts';

describe('baton: bad input', () => {
  test('an unknown service, a bad URL and a bad --max-count are usage errors (64) with a message', async () => {
    const unknown = await baton('db', 'upgrade', '--service', 'nova', '--db', 'sqlite::memory:');
    assert.equal(unknown.status, 64);
    assert.match(unknown.err, /Allowed choices are placement/);
    const badUrl = await baton(
      'db',
      'upgrade',
      '--service',
      'placement',
      '--db',
      'oracle://u:pw@h/x',
    );
    assert.equal(badUrl.status, 64);
    assert.match(
      badUrl.err,
      /^baton: error: database URL 'oracle:\/\/u:\*\*\*@h\/x' has an unsupported scheme/,
    );
    for (const count of ['0', '-3', 'abc', '1.5']) {
      const bad = await baton(
        'db',
        'online-migrations',
        '--service',
        'placement',
        '--db',
        'sqlite::memory:',
        '--max-count',
        count,
      );
      assert.equal(bad.status, 64, count);
      assert.match(bad.err, /max-count must be a positive integer/);
    }
    for (const size of ['0', 'many', '2.5']) {
      const bad = await baton(
        'db',
        'online-migrations',
        '--service',
        'placement',
        '--db',
        'sqlite::memory:',
        '--batch-size',
        size,
      );
      assert.equal(bad.status, 64, size);
      assert.match(bad.err, /^baton: error: batch-size must be a positive integer/);
    }
    const missing = await baton('db', 'upgrade');
    assert.equal(missing.status, 64);
    assert.match(missing.err, /required option '--service <name>' not specified/);
  });

  test('an unreachable server: exit 1, one line, no password, no stack trace', async () => {
    const result = await baton(
      'db',
      'upgrade',
      '--service',
      'placement',
      '--db',
      'postgresql://admin:hunter2@127.0.0.1:1/x',
    );
    assert.equal(result.status, 1);
    assert.equal(
      result.err,
      'baton: error: cannot open database postgresql://admin:***@127.0.0.1:1/x: connection refused (is the server running?)\n',
    );
  });
});

forEachBackend('baton db commands', (ctx) => {
  // biome-ignore lint/suspicious/noExplicitAny: placement's tables
  const db = () => ctx.db().kysely as Kysely<any>;

  test('upgrade-check before the schema exists warns about the pending migration (exit 1)', async () => {
    const result = await baton('upgrade-check', '--service', 'placement', '--db', ctx.url());
    assert.equal(result.status, 1, result.out + result.err);
    assert.match(result.out, /Check: Schema migrations\s*\|\n\| Result: Warning/);
    assert.match(
      result.out.replace(/\s*\|\n\|\s*/g, ' '),
      /run `baton db upgrade --service placement --db /,
    );
    assert.match(
      result.out,
      /Check: Online data migrations\s*\|\n\| Result: Warning\s*\|\n\| Details: Not checked/,
    );
  });

  test('db upgrade applies the schema once; a second run has nothing to do', async () => {
    const first = await baton('db', 'upgrade', '--service', 'placement', '--db', ctx.url());
    assert.equal(first.status, 0, first.err);
    assert.match(first.out, /applied 0001_initial \(2026\.1\)/);
    const second = await baton('db', 'upgrade', '--service', 'placement', '--db', ctx.url());
    assert.equal(second.status, 0, second.err);
    assert.match(second.out, /the schema is up to date \(2 migrations applied\)/);
    const tables = await db().selectFrom('resource_providers').select('id').execute();
    assert.deepEqual(tables, []);
  });

  test('online migrations: --max-count stops with exit 1, a re-run finishes with exit 0', async () => {
    await db()
      .insertInto('allocations')
      .values(
        ['c1', 'c1', 'c2', 'c3', 'c3'].map((consumer, i) => ({
          resource_provider_id: 1,
          consumer_id: `00000000-0000-0000-0000-00000000000${consumer.slice(1)}`,
          resource_class_id: i,
          used: 1,
        })),
      )
      .execute();
    const partial = await baton(
      'db',
      'online-migrations',
      '--service',
      'placement',
      '--db',
      ctx.url(),
      '--max-count',
      '2',
    );
    assert.equal(partial.status, 1, partial.out + partial.err);
    assert.match(partial.out, /create_incomplete_consumers \|\s+3 \|\s+2 \|\s+1 \| more/);
    assert.match(partial.out, /Please re-run/);
    const rest = await baton(
      'db',
      'online-migrations',
      '--service',
      'placement',
      '--db',
      ctx.url(),
    );
    assert.equal(rest.status, 0, rest.out + rest.err);
    assert.match(rest.out, /Data migrations have completed/);
    const consumers = await db()
      .selectFrom('consumers')
      .select(['uuid', 'generation'])
      .orderBy('uuid')
      .execute();
    assert.equal(consumers.length, 3);
    const again = await baton(
      'db',
      'online-migrations',
      '--service',
      'placement',
      '--db',
      ctx.url(),
    );
    assert.equal(again.status, 0);
    assert.match(again.out, /create_incomplete_consumers \|\s+0 \|\s+0 \|\s+0 \| done/);
  });

  test('online migrations read the database URL and the incomplete-consumer ids from --config-file', async () => {
    const uuid = '11111111-2222-3333-4444-555555555555';
    await db()
      .insertInto('allocations')
      .values({ resource_provider_id: 1, consumer_id: uuid, resource_class_id: 0, used: 1 })
      .execute();
    const dir = mkdtempSync(join(tmpdir(), 'baton-conf-'));
    const file = join(dir, 'placement.conf');
    writeFileSync(
      file,
      `[placement_database]\nconnection = ${ctx.url()}\n\n[placement]\n` +
        'incomplete_consumer_project_id = legacy-project\nincomplete_consumer_user_id = legacy-user\n',
    );
    try {
      const run = await baton(
        'db',
        'online-migrations',
        '--service',
        'placement',
        '--config-file',
        file,
      );
      assert.equal(run.status, 0, run.out + run.err);
      const owner = await db()
        .selectFrom('consumers as c')
        .innerJoin('projects as p', 'p.id', 'c.project_id')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .select(['p.external_id as project', 'u.external_id as user'])
        .where('c.uuid', '=', uuid)
        .executeTakeFirstOrThrow();
      assert.deepEqual(owner, { project: 'legacy-project', user: 'legacy-user' });
      const missing = await baton(
        'db',
        'online-migrations',
        '--service',
        'placement',
        '--config-file',
        join(dir, 'absent.conf'),
      );
      assert.equal(missing.status, 64);
      assert.match(missing.err, /absent\.conf: no such file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('services lists what registered; upgrade-check warns when versions are mixed or a pin is set', async () => {
    await registerService(ctx.db(), { binary: 'placement-api', host: 'a:8778', version: 2 });
    await registerService(ctx.db(), { binary: 'placement-api', host: 'b:8778', version: 3 });
    const listed = await baton('db', 'services', '--service', 'placement', '--db', ctx.url());
    assert.equal(listed.status, 0);
    assert.match(listed.out, /\| placement-api \| a:8778 \| 2\s+\|.*\| live {2}\|/);
    const check = await baton(
      'upgrade-check',
      '--service',
      'placement',
      '--db',
      ctx.url(),
      '--pin-release-version',
      '2026.1',
    );
    assert.equal(check.status, 1);
    assert.match(check.out, /Check: Service versions\s*\|\n\| Result: Warning/);
    assert.match(check.out, /pin_release_version is set to 2026\.1/);
    const badPin = await baton(
      'upgrade-check',
      '--service',
      'placement',
      '--db',
      ctx.url(),
      '--pin-release-version',
      'zed',
    );
    assert.equal(badPin.status, 64);
    assert.match(badPin.err, /'zed' is not a known release; known releases: 2026\.1, master/);
  });
});
