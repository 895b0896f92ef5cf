/**
 * Going back a release, safely: a process of this release started over rows a newer release
 * wrote (a stand-in next release, test/support/next-release.ts) exits 2 and says what to run;
 * the newer release's `baton db downgrade-rows --to <this release>` refuses while one of its
 * processes is unpinned, then rewrites the rows down (the newer field kept in its column);
 * this release's processes then start. The upgrade check fails while a live process of this
 * release cannot read the rows. Real processes, on SQLite, PostgreSQL and MariaDB.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BAREMETAL_SERVICE } from '../../src/baremetal/service.ts';
import { dbDowngradeRows } from '../../src/cli/db-downgrade-rows-command.ts';
import { upgradeCheck } from '../../src/cli/upgrade-check-command.ts';
import {
  type Database,
  migrateToLatest,
  openDatabase,
  registerService,
  type ServiceRegistration,
} from '../../src/db/index.ts';
import { freePort } from '../../src/rehearsal/free-port.ts';
import { startBaton, stopProcess } from '../../src/rehearsal/processes.ts';
import { BACKENDS, backendAvailable, createScratchDatabase } from '../db/support/backends.ts';
import {
  NEXT_MIGRATIONS,
  NEXT_NODE_VERSION,
  NEXT_SERVICE,
  NEXT_SERVICE_VERSION,
} from '../support/next-release.ts';

const ROOT = join(import.meta.dirname, '../..');
const THIS = BAREMETAL_SERVICE.release;

/** Runs `baton <args>` to its end: status and everything it printed. */
function runBaton(
  args: readonly string[],
  dir: string,
): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/baton.mjs'), ...args], {
      env: { ...process.env, BATON_DATA_DIR: dir },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ status: code ?? (signal === 'SIGKILL' ? 137 : 143), output });
    });
  });
}

const capture = () => {
  const lines: string[] = [];
  return { out: (line: string) => lines.push(line), text: () => lines.join('\n') };
};

for (const backend of BACKENDS) {
  describe(`a process over rows a newer release wrote [${backend}]`, async () => {
    const unavailable = await backendAvailable(backend);
    if (unavailable !== undefined) {
      describe(unavailable, { skip: unavailable }, () => {});
      return;
    }
    let dir: string;
    let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
    let db: Database;
    let next: ServiceRegistration;
    const conf = (host: string, apiPort: number) =>
      [
        '[DEFAULT]',
        `host = ${host}`,
        `log_file = ${join(dir, `${host}.log`)}`,
        '[database]',
        `connection = ${scratch.url}`,
        '[api]',
        'host_ip = 127.0.0.1',
        `port = ${apiPort}`,
        '[conductor]',
        'heartbeat_interval = 2',
        '',
      ].join('\n');

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'baton-newer-rows-'));
      scratch = await createScratchDatabase(backend);
      db = await openDatabase(scratch.url);
      // The newer release upgraded the schema (expand only) and wrote a node at Node 1.38.
      const migrated = await migrateToLatest(db, NEXT_MIGRATIONS);
      if (migrated.error) throw migrated.error;
      await db.kysely
        .insertInto('nodes' as never)
        .values({
          uuid: '0f1e2d3c-4b5a-4968-8778-695a4b3c2d1e',
          name: 'written-by-next',
          driver: 'fake-hardware',
          provision_state: 'enroll',
          next_note: 'kept when going back',
          version: NEXT_NODE_VERSION,
          created_at: new Date(),
        } as never)
        .execute();
      next = await registerService(db, {
        binary: 'baremetal-conductor',
        host: 'next-conductor',
        version: NEXT_SERVICE_VERSION,
      });
    });
    after(async () => {
      await next?.deregister();
      await db?.close();
      await scratch?.drop();
      await rm(dir, { recursive: true, force: true });
    });

    test('a conductor and an API of this release refuse to start: exit 2, the command to run', async () => {
      for (const binary of ['conductor', 'api']) {
        const file = join(dir, `${binary}-refused.conf`);
        await writeFile(file, conf(`this-${binary}`, await freePort()));
        const { status, output } = await runBaton(
          ['baremetal', binary, '--config-file', file],
          dir,
        );
        assert.equal(status, 2, output);
        assert.match(
          output,
          new RegExp(
            `This release of baremetal \\(${THIS}\\) cannot read rows a newer release wrote: nodes Node ${NEXT_NODE_VERSION.replace('.', '\\.')}: 1 row`,
          ),
        );
        assert.match(
          output,
          /Live processes of a newer release: baremetal-conductor on next-conductor \(service version 3\)/,
        );
        assert.match(
          output,
          new RegExp(`baton db downgrade-rows --service baremetal --to ${THIS}`),
        );
        assert.doesNotMatch(output, /\n\s+at /, 'no stack trace');
      }
      // Refusing changed nothing: no row of this release in the services table.
      const rows = await db.kysely
        .selectFrom('baton_services' as never)
        .select('host' as never)
        .execute();
      assert.deepEqual(
        rows.map((row) => (row as { host: string }).host),
        ['next-conductor'],
      );
    });

    test('the upgrade check fails while a live process of this release cannot read the rows', async () => {
      const ours = await registerService(db, {
        binary: 'baremetal-api',
        host: 'this-api:1',
        version: 2,
      });
      try {
        const report = capture();
        const status = await upgradeCheck(
          { service: 'baremetal', db: scratch.url },
          report.out,
          NEXT_SERVICE,
        );
        assert.equal(status, 2, report.text());
        // The result table wraps its details: read them as one line.
        const details = report
          .text()
          .split('\n')
          .map((line) => line.replace(/^\|\s*|\s*\|$/g, ''))
          .join(' ');
        assert.match(
          details,
          /Check: Object versions Result: Failure Details: Live processes cannot read the rows: baremetal-api on this-api:1 \(antelope, service version 2\) cannot read nodes Node 1\.38: 1 row/,
        );
        assert.match(details, /Check: Online data migrations Result: Success/);
      } finally {
        await ours.deregister();
      }
    });

    test('the newer release rewrites its rows down once pinned, and this release starts', async () => {
      const refused = capture();
      await assert.rejects(
        dbDowngradeRows(
          { service: 'baremetal', db: scratch.url, to: THIS },
          refused.out,
          NEXT_SERVICE,
        ),
        /refusing to rewrite rows down to antelope: .*baremetal-conductor on next-conductor \(service version 3, unpinned\)/,
      );
      // The newer conductor is pinned to this release and restarted.
      await next.deregister();
      next = await registerService(db, {
        binary: 'baremetal-conductor',
        host: 'next-conductor',
        version: NEXT_SERVICE_VERSION,
        caps: () => ({ pin: THIS, release: THIS }),
      });
      const report = capture();
      const status = await dbDowngradeRows(
        { service: 'baremetal', db: scratch.url, to: THIS },
        report.out,
        NEXT_SERVICE,
      );
      assert.equal(status, 0, report.text());
      assert.match(report.text(), /\| nodes +\| +1 \| +1 \|/);
      const row = (await db.kysely
        .selectFrom('nodes' as never)
        .select(['version', 'next_note', 'name'] as never)
        .executeTakeFirstOrThrow()) as Record<string, unknown>;
      assert.deepEqual(row, {
        version: '1.37',
        next_note: 'kept when going back',
        name: 'written-by-next',
      });
      // Run again: nothing left, still 0.
      const again = capture();
      assert.equal(
        await dbDowngradeRows(
          { service: 'baremetal', db: scratch.url, to: THIS },
          again.out,
          NEXT_SERVICE,
        ),
        0,
      );

      const file = join(dir, 'conductor-back.conf');
      await writeFile(file, conf('this-conductor-back', await freePort()));
      const conductor = await startBaton(
        'conductor-back',
        ROOT,
        ['baremetal', 'conductor', '--config-file', file],
        { ready: /serving topic/, logDir: dir },
      );
      assert.equal(await stopProcess(conductor), 0, conductor.output());
    });
  });
}
