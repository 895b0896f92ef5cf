/**
 * The dashboard's feed assembled from a deployment state (the feed of a running cluster:
 * test/baremetal/api/dashboard.test.ts): a dead row and a draining conductor are offline, the
 * heartbeat age is counted from the feed's time, the rows at each object's latest version are
 * counted, and the plan's step is carried.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BAREMETAL_SERVICE } from '../../../src/baremetal/service.ts';
import { capsInForce } from '../../../src/releases/index.ts';
import { dashboardState } from '../../../src/service/dashboard/dashboard-state.ts';
import type { DeploymentState } from '../../../src/service/deployment-state.ts';
import { planFromState } from '../../../src/service/upgrade-plan.ts';

const NOW = Date.parse('2026-11-26T01:00:00Z');
const row = (binary: string, host: string, version: number, secondsAgo: number, live: boolean) => ({
  id: host,
  binary,
  host,
  version,
  startedAt: new Date(NOW - 600_000),
  lastSeen: new Date(NOW - secondsAgo * 1000),
  live,
});

const state: DeploymentState = {
  service: 'baremetal',
  release: 'antelope',
  previousRelease: 'zed',
  codeVersion: 2,
  services: [
    row('baremetal-api', 'a1', 1, 2, true),
    { ...row('baremetal-conductor', 'c1', 2, 1, true), pinRelease: 'zed', capsRelease: 'zed' },
    row('baremetal-conductor', 'c2', 2, 3, true),
    row('baremetal-conductor', 'old', 1, 400, false),
  ],
  releaseOfVersion: (v) => (v === 1 ? 'zed' : 'antelope'),
  schema: {
    state: 'current',
    applied: 2,
    pending: [],
    version: '0002_x',
    appliedByOlderCode: true,
  },
  onlineMigrations: [{ name: 'update_to_latest_versions', description: '', pending: 7 }],
  objectVersions: [{ table: 'nodes', objectName: 'Node', rows: { '1.36': 7, '1.37': 3 } }],
  caps: capsInForce(BAREMETAL_SERVICE.releases, 'zed'),
};

test('services, offline ones, object progress and the plan in the feed', () => {
  const plan = planFromState(state, BAREMETAL_SERVICE, {
    databaseArgs: '',
    startCommand: (b) => b,
  });
  const feed = dashboardState(state, plan, BAREMETAL_SERVICE, {
    now: NOW,
    offline: (binary, host) => binary === 'baremetal-conductor' && host === 'c2',
  });
  assert.deepEqual(
    feed.services.map((s) => `${s.host} ${s.runs} ${s.heartbeatSecondsAgo} ${s.state}`),
    [
      'a1 zed 2 live',
      'c1 antelope pinned to zed 1 live',
      'c2 antelope 3 offline',
      'old zed 400 offline',
    ],
  );
  assert.deepEqual(feed.objectTables, [
    { table: 'nodes', objectName: 'Node', latest: '1.37', rows: 10, atLatest: 3 },
  ]);
  assert.equal(feed.caps.release, 'zed');
  assert.equal(feed.generatedAt, '2026-11-26T01:00:00.000Z');
  assert.deepEqual(feed.onlineMigrations, [
    { name: 'update_to_latest_versions', pending: 7, waiting: null },
  ]);
  // c2 (unpinned) and c1 (pinned) with a zed API: off the rolling-upgrade doc's table, said so.
  assert.equal(feed.upgrade.current, null);
  assert.equal(feed.upgrade.problems.length, 1);
  assert.equal(feed.rehearsal, null);
});
