/**
 * Smoke test of the harness that runs the real Ironic 21.4.4 beside Baton
 * (test/support/real-ironic.ts): it starts with two conductors, maps nodes to them as Baton's
 * hash ring does, serves a fake-hardware node through the whole enroll -> manageable ->
 * available -> active cycle driven by the real `baremetal` client with --wait, and stops
 * without leaving a process behind. Under CI=true a real Ironic that
 * is missing or fails to start is a failure.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConductorRings } from '../../src/baremetal/common/hash-ring.ts';
import { type RealIronic, realIronicMissing, startRealIronic } from '../support/real-ironic.ts';

const HEADERS = { 'Content-Type': 'application/json', 'X-OpenStack-Ironic-API-Version': '1.80' };

const inCi = process.env.CI === 'true';
const missing = realIronicMissing();
if (missing && inCi) throw new Error(`${missing} (CI=true: the real Ironic must run)`);

describe('the real Ironic harness', { skip: missing }, () => {
  let ironic: RealIronic;

  before(async () => {
    // Without automated cleaning `provide` is one short conductor step: the real conductor on
    // SQLite can lose a cleaning to "database is locked" on a loaded machine (CI once waited
    // 60 s for `available`), and cleaning is not what this harness test is about.
    ironic = await startRealIronic({ conductors: 2, automatedClean: false });
  });

  after(async () => {
    await ironic?.stop();
  });

  it('answers /v1 with the real maximum and registers its conductors', async () => {
    const response = await fetch(`${ironic.url}/v1`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-openstack-ironic-api-maximum-version'), '1.82');
    const drivers = (await (await fetch(`${ironic.url}/v1/drivers`)).json()) as {
      drivers: { name: string; hosts: string[] }[];
    };
    assert.deepEqual(
      drivers.drivers.map((d) => [d.name, [...d.hosts].sort()]),
      [['fake-hardware', ['127.0.0.1', '127.0.0.2']]],
    );
  });

  it('maps nodes to conductors exactly as the hash ring of Baton does', async () => {
    const rings = new ConductorRings(
      ['127.0.0.1', '127.0.0.2'].map((hostname) => ({
        hostname,
        conductorGroup: '',
        hardwareTypes: ['fake-hardware'],
      })),
    );
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const response = await fetch(`${ironic.url}/v1/nodes`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ driver: 'fake-hardware' }),
      });
      const node = (await response.json()) as { uuid: string; conductor: string };
      const ours = rings.conductorFor({
        uuid: node.uuid,
        driver: 'fake-hardware',
        conductorGroup: '',
      });
      assert.equal(ours, node.conductor, node.uuid);
      seen.add(ours);
    }
    assert.equal(seen.size, 2);
  });

  it('drives a fake-hardware node from enroll to active with the baremetal client', async () => {
    const created = await fetch(`${ironic.url}/v1/nodes`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ driver: 'fake-hardware', name: 'smoke-1' }),
    });
    assert.equal(created.status, 201);
    const node = (await created.json()) as { uuid: string; provision_state: string };
    assert.equal(node.provision_state, 'enroll');

    for (const [verb, state] of [
      ['manage', 'manageable'],
      ['provide', 'available'],
      ['deploy', 'active'],
    ] as const) {
      // The client's own --wait ends before the process deadline, so a slow conductor is
      // reported by the client, and the node's state and the logs say why.
      const result = await ironic.baremetal(['node', verb, node.uuid, '--wait', '150'], 200_000);
      if (result.code !== 0) {
        const state = await fetch(`${ironic.url}/v1/nodes/${node.uuid}`, { headers: HEADERS });
        assert.fail(
          `${verb} exited ${result.code}: ${result.stderr}\nnode: ${await state.text()}\n` +
            ironic.logTails(),
        );
      }
      const shown = await ironic.baremetal([
        'node',
        'show',
        'smoke-1',
        '-f',
        'json',
        '-c',
        'provision_state',
        '-c',
        'target_provision_state',
      ]);
      assert.deepEqual(JSON.parse(shown.stdout), {
        provision_state: state,
        target_provision_state: null,
      });
    }
  });

  it('stops every process it started', async () => {
    const processes = [ironic.api, ...ironic.conductors.map((c) => c.process)];
    await ironic.stop();
    for (const child of processes) assert.notEqual(child.exitCode ?? child.signalCode, null);
  });
});
