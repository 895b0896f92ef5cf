/** SIGHUP's pieces: what changed, what needs a restart, the level applied, the log file reopened. */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { capsInForce, LiveCaps } from '../../src/releases/index.ts';
import {
  changedSettings,
  loggingPaths,
  reloadProcess,
  settingsNeedingRestart,
} from '../../src/service/index.ts';
import { createServiceLogger } from '../../src/service/logging/service-logger.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

test('changed settings are leaf paths; the logging ones are not reported as needing a restart', () => {
  const before = {
    api: { port: 1, hosts: ['a'] },
    operations: { debug: false, logLevel: undefined },
  };
  const after = {
    api: { port: 2, hosts: ['a', 'b'] },
    operations: { debug: true, logLevel: 'warn' },
  };
  const changed = changedSettings(before, after);
  assert.deepEqual(changed, ['api.hosts', 'api.port', 'operations.debug', 'operations.logLevel']);
  assert.deepEqual(settingsNeedingRestart(changed, loggingPaths('operations.')), [
    'api.hosts',
    'api.port',
  ]);
  assert.deepEqual(changedSettings(before, structuredClone(before)), []);
});

test('reloadProcess sets the level, reports the rest and the pin, reopens a rotated log file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reload-'));
  try {
    const file = join(dir, 'service.log');
    const log = createServiceLogger({ level: 'info', format: 'json', file }, { binary: 'x-api' });
    const child = log.logger.child({ component: 'rpc' });
    await sleep(200); // the file is opened asynchronously
    log.logger.info('before the rotation');
    log.flush();
    await sleep(100);
    await rename(file, `${file}.1`);
    const caps = new LiveCaps(capsInForce({ master: { objects: {} } }, undefined));
    let refreshed = 0;
    const report = await reloadProcess(
      {
        log,
        deployment: {
          caps,
          refresh: async () => {
            refreshed++;
            return { caps: caps.current(), changed: false };
          },
        },
        childLoggers: [child],
      },
      {
        before: { port: 1, debug: false },
        after: { port: 2, debug: true },
        mutable: loggingPaths(),
        logging: { debug: true, useJson: true },
        pinBefore: undefined,
        pinAfter: 'zed',
      },
    );
    assert.equal(report.level, 'debug');
    assert.deepEqual(report.needRestart, ['port', 'pin_release_version']);
    assert.equal(refreshed, 1);
    assert.equal(log.logger.level, 'debug');
    assert.equal(child.level, 'debug', 'a child made before the reload follows');
    let fresh = '';
    for (let i = 0; i < 50 && !fresh.includes('after a restart'); i++) {
      await sleep(50); // the new file is opened asynchronously too
      log.flush();
      fresh = await readFile(file, 'utf8').catch(() => '');
    }
    assert.match(fresh, /SIGHUP: log level debug/);
    assert.match(fresh, /take effect only after a restart: port, pin_release_version/);
    assert.doesNotMatch(fresh, /before the rotation/);
    assert.match(await readFile(`${file}.1`, 'utf8'), /before the rotation/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
