/**
 * Issue 22 §3: `baton db services --service X` lists X's processes only (`--all`: every
 * service's), each with its pid, state, config files and health as its services row records
 * them; `baton upgrade plan` names the same pid and files, so its commands need no guessing; on
 * a database this code made in one go (a fresh install) it says there is nothing to upgrade,
 * not that an upgrade is complete.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Database, openDatabase, registerService } from '../../src/db/index.ts';
import { baton } from './support/run-baton.ts';

describe('db services and upgrade plan: the processes as their rows record them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-processes-'));
  const url = `sqlite:${join(dir, 'baton.sqlite')}`;
  let db: Database;
  before(async () => {
    for (const service of ['placement', 'baremetal']) {
      const made = await baton('db', 'upgrade', '--service', service, '--db', url);
      assert.equal(made.status, 0, made.err);
    }
    db = await openDatabase(url);
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a fresh install: nothing to upgrade, no step done, no "complete"', async () => {
    const text = await baton('upgrade', 'plan', '--db', url);
    assert.equal(text.status, 0, text.err);
    assert.match(
      text.out,
      /^baremetal: a fresh install of 2023\.1 \(antelope\) \(service version 2\): nothing to upgrade/,
    );
    assert.doesNotMatch(text.out, /complete|\| done/);
    const json = JSON.parse((await baton('upgrade', 'plan', '--db', url, '--json')).out);
    assert.equal(json.fresh, true);
    assert.equal(json.complete, false);
    assert.ok(json.steps.every((step: { state: string }) => step.state === 'not needed'));
  });

  test("--service lists that service's processes, with pid, state, config files and health", async () => {
    const conductor = await registerService(db, {
      binary: 'baremetal-conductor',
      host: 'c1',
      version: 2,
      process: {
        pid: 4242,
        machine: 'c1',
        configFiles: ['/etc/ironic/ironic.conf', '/etc/ironic/conductor-1.conf'],
      },
      health: () => 'no hardware type registered',
    });
    await conductor.heartbeat();
    const api = await registerService(db, {
      binary: 'baremetal-api',
      host: 'a1:6385',
      version: 2,
      process: { pid: 5151, machine: 'm2', configFiles: ['/etc/ironic/api-1.conf'] },
    });
    await api.setState('stopping');
    await registerService(db, {
      binary: 'placement-api',
      host: 'p1:8778',
      version: 1,
      process: { pid: 6161, configFiles: ['/etc/placement/placement.conf'] },
    });
    await registerService(db, { binary: 'ironic.conductor_manager', host: 'c1', version: 2 });

    const listed = await baton('db', 'services', '--service', 'baremetal', '--db', url);
    assert.equal(listed.status, 0, listed.err);
    const rows = listed.out
      .split('\n')
      .filter((line) => /^\| (baremetal|placement|ironic)/.test(line));
    assert.equal(rows.length, 2, listed.out);
    assert.match(
      listed.out,
      /\| baremetal-api +\| a1:6385 \| 2 +\| 5151 on m2 \| live \(stopping\) \| [^|]+ \| \/etc\/ironic\/api-1\.conf +\| ok +\|/,
    );
    assert.match(
      listed.out,
      /\| baremetal-conductor \| c1 +\| 2 +\| 4242 +\| live +\| [^|]+ \| \/etc\/ironic\/ironic\.conf, \/etc\/ironic\/conductor-1\.conf \| no hardware type registered \|/,
    );
    const all = await baton('db', 'services', '--service', 'baremetal', '--db', url, '--all');
    assert.match(all.out, /\| placement-api +\| p1:8778/);
    assert.match(all.out, /\| ironic\.conductor_manager/);
    const json = JSON.parse(
      (await baton('db', 'services', '--service', 'placement', '--db', url, '--json')).out,
    );
    assert.deepEqual(
      json.services.map((s: { binary: string; pid: number; configFiles: string[] }) => [
        s.binary,
        s.pid,
        s.configFiles,
      ]),
      [['placement-api', 6161, ['/etc/placement/placement.conf']]],
    );

    const plan = JSON.parse((await baton('upgrade', 'plan', '--db', url, '--json')).out);
    const c1 = plan.processes.find((p: { host: string }) => p.host === 'c1');
    assert.equal(c1.pid, 4242);
    assert.deepEqual(c1.configFiles, ['/etc/ironic/ironic.conf', '/etc/ironic/conductor-1.conf']);
    const text = await baton('upgrade', 'plan', '--db', url);
    assert.match(
      text.out,
      /\| baremetal-conductor \| c1 +\| 2 +\| antelope \| 4242 on c1 \| \/etc\/ironic\/ironic\.conf, \/etc\/ironic\/conductor-1\.conf \|/,
    );
  });

  test('--wait-for BINARY@HOST lists once that process serves, or exits 1 after --wait-timeout', async () => {
    const starting = await registerService(db, {
      binary: 'baremetal-conductor',
      host: 'c9',
      version: 2,
      process: { pid: 7777 },
    });
    await starting.setState('starting');
    let done = false;
    const waiting = baton(
      ...['db', 'services', '--service', 'baremetal', '--db', url],
      ...['--wait-for', 'baremetal-conductor@c9', '--wait-timeout', '30'],
    ).then((result) => {
      done = true;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(done, false, 'still starting: it waits');
    await starting.setState('serving');
    const listed = await waiting;
    assert.equal(listed.status, 0, listed.err);
    assert.match(listed.out, /\| baremetal-conductor \| c9 /);
    const never = await baton(
      ...['db', 'services', '--service', 'baremetal', '--db', url],
      ...['--wait-for', 'baremetal-conductor@nowhere', '--wait-timeout', '1'],
    );
    assert.equal(never.status, 1);
    assert.equal(
      never.err,
      'baton: error: baremetal-conductor@nowhere does not serve after 1 s (no row)\n',
    );
    const bad = await baton('db', 'services', '--service', 'baremetal', '--wait-for', 'c9');
    assert.equal(bad.status, 64);
    await starting.deregister();
  });
});
