/** The data check: acknowledged writes present with their values, nodes at rest, no reservation. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkData, type NodeRow } from '../../src/rehearsal/data-check.ts';
import { Ledger } from '../../src/rehearsal/ledger.ts';

const node = (uuid: string, overrides: Partial<NodeRow> = {}): NodeRow => ({
  uuid,
  name: `n-${uuid}`,
  extra: { created_by: 'r1', rehearsal: 'v2' },
  provisionState: 'available',
  targetProvisionState: null,
  reservation: null,
  targetPowerState: null,
  ...overrides,
});

const INVENTORY = { inventory: { cpu: { count: 2 } }, plugin_data: { r: 1 } };

function ledger(): Ledger {
  const l = new Ledger();
  l.nodeCreated({
    uuid: 'a',
    name: 'n-a',
    extra: { created_by: 'r1' },
    state: 'enroll',
    microversion: '1.80',
  });
  l.extraSet('a', 'rehearsal', 'v1', '1.80');
  l.extraSet('a', 'rehearsal', 'v2', '1.80');
  l.stateReached('a', 'available');
  l.portCreated({ uuid: 'p', address: '52:54:00:00:00:01', nodeUuid: 'a', microversion: '1.80' });
  return l;
}

/** A node of the ledger created with an inventory, whose shard the new release set. */
function sharded(): Ledger {
  const l = new Ledger();
  l.nodeCreated({
    uuid: 's',
    name: 'n-s',
    extra: { created_by: 'r1' },
    inventory: INVENTORY,
    state: 'enroll',
    microversion: '1.80',
  });
  l.shardSet('s', 'rack-7', '1.82');
  return l;
}

describe('data check', () => {
  it('is clean when the database holds every acknowledged write and nodes are at rest', () => {
    const result = checkData(
      ledger(),
      [node('a'), node('other', { provisionState: 'enroll', extra: {} })],
      [{ uuid: 'p', address: '52:54:00:00:00:01', nodeUuid: 'a' }],
    );
    assert.deepEqual(result.problems, []);
    assert.equal(result.nodesExpected, 1);
    assert.equal(result.nodesInDatabase, 2);
    assert.deepEqual(result.compared, {
      'name @1.80': 1,
      'extra.created_by @1.80': 1,
      'extra.rehearsal @1.80': 1,
      'address @1.80': 1,
      'node @1.80': 1,
    });
  });

  it("compares the new release's fields at the version they were written: a shard, an inventory in either place", () => {
    const base = node('s', { name: 'n-s', extra: { created_by: 'r1' }, provisionState: 'enroll' });
    const inExtra = { ...base, shard: 'rack-7', extra: { ...base.extra, ...INVENTORY } };
    const moved = { ...base, shard: 'rack-7', inventory: INVENTORY };
    for (const row of [inExtra, moved]) {
      const result = checkData(sharded(), [row], []);
      assert.deepEqual(result.problems, []);
      assert.equal(result.compared['shard @1.82'], 1);
      assert.equal(result.compared['inventory @1.80'], 1);
    }
    const lost = checkData(sharded(), [{ ...base, shard: null }], []);
    assert.deepEqual(lost.problems, [
      'node s: shard is null, the acknowledged write (at 1.82) was "rack-7"',
      `node s: inventory is undefined, the acknowledged write (at 1.80) was ${JSON.stringify(INVENTORY)}`,
    ]);
  });

  it('names a lost node, a lost port, a stale value and a wrong state', () => {
    const stale = checkData(
      ledger(),
      [node('a', { extra: { created_by: 'r1', rehearsal: 'v1' }, provisionState: 'active' })],
      [],
    );
    assert.deepEqual(stale.problems, [
      'node a: extra.rehearsal is "v1", the acknowledged write (at 1.80) was "v2"',
      'node a: provision_state active, last reached available',
      'port p (52:54:00:00:00:01) was created but is missing',
    ]);
    const lost = checkData(ledger(), [], []);
    assert.match(lost.problems[0] ?? '', /node a \(n-a\) was created but is missing/);
  });

  it('finds any node not at rest: a transient state, a target, a reservation', () => {
    const result = checkData(
      new Ledger(),
      [
        node('x', { provisionState: 'deploying', targetProvisionState: 'active' }),
        node('y', { reservation: 'cond1' }),
        node('z', { provisionState: 'deploy failed' }),
        node('w', { targetPowerState: 'power on' }),
      ],
      [],
    );
    assert.deepEqual(result.problems, [
      'node x: left in provision_state deploying',
      'node x: target_provision_state active',
      'node y: reservation left by cond1',
      'node z: left in provision_state deploy failed',
      'node w: target_power_state power on',
    ]);
  });
});
