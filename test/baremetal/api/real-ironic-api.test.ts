/**
 * Baton's bare metal API held to the real Ironic 21.4.4 (Debian's ironic-api and
 * ironic-conductor, started once for this file by test/support/real-ironic.ts): the same
 * sequences of requests go to both, and every answer must have the same status, version
 * headers, Allow and Location, and body, once UUIDs (named by order of appearance),
 * timestamps and addresses are set aside. Scenarios are in ./scenarios/.
 *
 * Without the real service installed the comparison is skipped with the reason; under
 * CI=true it fails.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import { Allocation } from '../../../src/baremetal/objects/index.ts';
import { BAREMETAL_RELEASES } from '../../../src/baremetal/releases.ts';
import { type RealIronic, realIronicMissing, startRealIronic } from '../../support/real-ironic.ts';
import { SCENARIOS } from './scenarios/index.ts';
import { type BatonApi, pinnedCaps, startBatonApi } from './support/baton-api.ts';
import { assertSameAnswers } from './support/same-answers.ts';

const inCi = process.env.CI === 'true';
const missing = realIronicMissing();
if (missing && inCi) throw new Error(`${missing} (CI=true: the real Ironic must run)`);

describe('the bare metal API against the real Ironic', { skip: missing }, () => {
  let real: RealIronic;
  let baton: BatonApi;

  before(async () => {
    // Both pinned to zed (API 1.1 to 1.80, zed's RPC and object versions): the rolling
    // upgrade's steps 1 to 3.1, compared with the real service in the same state.
    [real, baton] = await Promise.all([
      startRealIronic({ pinReleaseVersion: 'zed' }),
      // Baton's conductor is host 127.0.0.1, as the real one is.
      startBatonApi({ caps: pinnedCaps('zed') }),
    ]);
  });

  after(async () => {
    await Promise.all([real?.stop(), baton?.close()]);
  });

  for (const scenario of SCENARIOS) {
    it(scenario.title, () => assertSameAnswers(scenario, real, baton));
  }

  it("creating or deleting an allocation needs RPC 1.2, above zed's cap: 406 where the real one goes on", async () => {
    const request = {
      method: 'POST',
      headers: { 'X-OpenStack-Ironic-API-Version': 'latest', 'Content-Type': 'application/json' },
      body: JSON.stringify({ resource_class: 'rc-pinned', name: 'pinned-allocation' }),
    };
    const theirs = await fetch(`${real.url}/v1/allocations`, request);
    assert.equal(theirs.status, 201, await theirs.text());
    const ours = await baton.request({
      method: 'POST',
      url: '/v1/allocations',
      headers: request.headers,
      payload: request.body,
    });
    assert.equal(ours.statusCode, 406, ours.body);
    assert.match(JSON.parse(ours.json().error_message).faultstring, /conductor RPC API 1\.2/);
    // Reads and PATCH (the API's own write) are served: an allocation made before the pin is
    // seen, and cannot be deleted through this API either.
    await baton.store.allocations.create(
      Allocation.create({ name: 'made-before', resource_class: 'rc-pinned' }),
    );
    const read = await baton.request({
      url: '/v1/allocations/made-before',
      headers: { 'X-OpenStack-Ironic-API-Version': 'latest' },
    });
    assert.equal(read.statusCode, 200, read.body);
    const renamed = await baton.request({
      method: 'PATCH',
      url: '/v1/allocations/made-before',
      headers: request.headers,
      payload: [{ op: 'add', path: '/extra/pinned', value: true }],
    });
    assert.equal(renamed.statusCode, 200, renamed.body);
    const gone = await baton.request({
      method: 'DELETE',
      url: '/v1/allocations/made-before',
      headers: request.headers,
    });
    assert.equal(gone.statusCode, 406, gone.body);
  });

  it("changing or deleting a volume needs RPC 1.4, above zed's cap: 406 where the real one goes on", async () => {
    // The pinned volume scenario (scenarios/pin-volume.ts) left a connector on both sides.
    const url = '/v1/volume/connectors/1be26c0b-03f2-4d2e-ae87-c02d7f33c1e2';
    const headers = {
      'X-OpenStack-Ironic-API-Version': 'latest',
      'Content-Type': 'application/json',
    };
    const body = JSON.stringify([{ op: 'add', path: '/extra/pinned', value: true }]);
    const theirs = await fetch(`${real.url}${url}`, { method: 'PATCH', headers, body });
    // The real conductor refuses it for the node's power state: the call went through.
    assert.equal(theirs.status, 400, await theirs.text());
    const ours = await baton.request({ method: 'PATCH', url, headers, payload: body });
    assert.equal(ours.statusCode, 406, ours.body);
    assert.match(JSON.parse(ours.json().error_message).faultstring, /conductor RPC API 1\.4/);
    const gone = await baton.request({ method: 'DELETE', url, headers });
    assert.equal(gone.statusCode, 406, gone.body);
  });

  /** The tables whose row versions are compared. */
  type VersionedTable =
    | 'volume_connectors'
    | 'volume_targets'
    | 'deploy_templates'
    | 'bios_settings'
    | 'node_history'
    | 'nodes'
    | 'ports'
    | 'portgroups'
    | 'chassis'
    | 'conductors';

  /** The distinct versions of `table`'s rows: the real pinned service's (sorted), and Baton's. */
  const versionsWritten = async (table: VersionedTable) => {
    const file = new Sqlite(join(real.dir, 'ironic.sqlite'), { readonly: true });
    try {
      const theirs = (
        file.prepare(`select distinct version from ${table} order by version`).all() as {
          version: string;
        }[]
      ).map((row) => row.version);
      const ours = (
        await baton.db.kysely.selectFrom(table).select('version').distinct().execute()
      ).map((row) => row.version);
      return { theirs, ours };
    } finally {
      file.close();
    }
  };

  it('wrote volume connectors and targets at the version the real pinned service wrote (1.0)', async () => {
    for (const table of ['volume_connectors', 'volume_targets'] as const) {
      const { theirs, ours } = await versionsWritten(table);
      assert.deepEqual(theirs, ['1.0'], table);
      assert.deepEqual(ours, theirs, table);
    }
  });

  it('wrote deploy templates at the version the real pinned service wrote (new to Baton, 1.1)', async () => {
    const { theirs, ours } = await versionsWritten('deploy_templates');
    assert.deepEqual(theirs, ['1.1']);
    assert.deepEqual(ours, theirs);
  });

  it('wrote BIOS settings and history at the versions the real pinned service wrote (1.1, 1.0)', async () => {
    for (const [table, version] of [
      ['bios_settings', '1.1'],
      ['node_history', '1.0'],
    ] as const) {
      const { theirs, ours } = await versionsWritten(table);
      assert.deepEqual(theirs, [version], table);
      assert.deepEqual(ours, theirs, table);
    }
  });

  it("wrote every row at zed's object versions, as the real pinned service did", async () => {
    const tables = ['nodes', 'ports', 'portgroups', 'chassis', 'conductors'] as const;
    for (const table of tables) {
      const { theirs, ours } = await versionsWritten(table);
      assert.ok(theirs.length > 0, `the scenarios wrote ${table}`);
      assert.deepEqual(ours.sort(), theirs, table);
      const zed = BAREMETAL_RELEASES.zed?.objects ?? {};
      const type = {
        nodes: 'Node',
        ports: 'Port',
        portgroups: 'Portgroup',
        chassis: 'Chassis',
        conductors: 'Conductor',
      }[table];
      assert.deepEqual(theirs, zed[type], `${table} at zed's ${type}`);
    }
  });
});
