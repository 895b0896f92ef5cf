/** The slowest requests of a step, each with the cluster's events it overlapped. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestRecord } from '../../src/rehearsal/request-log.ts';
import { slowestRequests } from '../../src/rehearsal/slow-requests.ts';

const request = (
  startedAt: number,
  ms: number,
  path = `/v1/nodes/${startedAt}`,
): RequestRecord => ({
  kind: 'show',
  method: 'GET',
  path,
  startedAt,
  ms,
  status: 200,
  ok: true,
});

describe('slowestRequests', () => {
  const records = [
    request(1000, 5),
    request(1100, 900, '/v1/nodes/slow'),
    request(1200, 50),
    request(1150, 10),
    request(3000, 300, '/v1/ports'),
    // Outside the window: never one of its slowest, but in flight at its start.
    request(900, 2000, '/v1/before'),
  ];
  const events = [
    { what: 'api1 stopping', from: 1500, to: 2500 },
    { what: 'db upgrade', from: 2900, to: 2950 },
  ];

  it('orders the window slowest first, and names the events each overlapped', () => {
    const slow = slowestRequests(records, events, 1000, 4000, 2);
    assert.deepEqual(
      slow.map((s) => [s.path, s.ms, s.during]),
      [
        ['/v1/nodes/slow', 900, ['api1 stopping']],
        ['/v1/ports', 300, []],
      ],
    );
  });

  it('counts the requests in flight when each was sent, those sent before the window too', () => {
    const [slowest] = slowestRequests(records, events, 1000, 4000, 1);
    // Sent at 1100: the one sent at 900 (2 s long) is in flight; the one of 1000 ended at 1005.
    assert.equal(slowest?.inFlight, 1);
  });

  it('gives nothing for a window with no request', () => {
    assert.deepEqual(slowestRequests(records, events, 5000, 6000), []);
  });
});
