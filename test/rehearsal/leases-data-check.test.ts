/** The leases data check: what the load saw acknowledged, held to the rows. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkLeases, LeaseLedger, type LeaseRow } from '../../src/rehearsal/leases-data-check.ts';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';

function ledger(): LeaseLedger {
  const acknowledged = new LeaseLedger();
  acknowledged.created(A, 'gpu-1', 'alice', 'default', '1.0');
  acknowledged.created(B, 'gpu-2', 'bob', 'gpus', '1.1');
  acknowledged.moved(B, 'moved', '1.1');
  acknowledged.created(C, 'gpu-3', 'carol', 'default', '1.0');
  acknowledged.released(C);
  return acknowledged;
}

const row = (uuid: string, fields: Partial<LeaseRow> = {}): LeaseRow => ({
  uuid,
  resource: uuid === A ? 'gpu-1' : 'gpu-2',
  holder: uuid === A ? 'alice' : 'bob',
  pool: uuid === A ? 'default' : 'moved',
  version: '1.1',
  ...fields,
});

describe('leases data check', () => {
  it('is clean when the rows hold every acknowledged write, and counts what it compared', () => {
    const result = checkLeases(ledger(), [row(A), row(B)], '1.1');
    assert.deepEqual(result.problems, []);
    assert.equal(result.summary, '3 leases acknowledged (1 released, 2 held); 2 in the database');
    assert.deepEqual(result.compared, {
      'resource @1.0': 1,
      'holder @1.0': 1,
      'pool @1.0': 1,
      'resource @1.1': 1,
      'holder @1.1': 1,
      'pool @1.1': 1,
    });
  });

  it('finds a lost lease, a lost move, a released lease still there and a row left behind', () => {
    const result = checkLeases(
      ledger(),
      [row(B, { pool: 'gpus' }), row(C, { resource: 'gpu-3', version: '1.0', pool: null })],
      '1.1',
    );
    assert.deepEqual(result.problems, [
      `lease ${A} was created but is missing`,
      `lease ${B}: pool is "gpus", the acknowledged write (at 1.1) was "moved"`,
      `lease ${C} was released but is still there`,
      `lease ${C}: row at Lease 1.0, not 1.1`,
    ]);
  });
});
