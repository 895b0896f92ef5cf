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

test('green only while every binary has a healthy process online; red while the nodes cannot be acted on', () => {
  const plan = planFromState(state, BAREMETAL_SERVICE, {
    databaseArgs: '',
    startCommand: (b) => b,
  });
  const healthy: DeploymentState = {
    ...state,
    services: [
      row('baremetal-api', 'a1', 2, 2, true),
      row('baremetal-conductor', 'c1', 2, 1, true),
    ],
  };
  const fine = { ...plan, problems: [] };
  assert.deepEqual(dashboardState(healthy, fine, BAREMETAL_SERVICE, { now: NOW }).status, {
    level: 'ok',
    reasons: [],
  });
  // The API is live, but says no conductor is online: not green.
  const noConductor: DeploymentState = {
    ...state,
    services: [
      {
        ...row('baremetal-api', 'a1', 2, 2, true),
        health: 'no conductor is online: nodes cannot be acted on',
      },
      row('baremetal-conductor', 'c1', 2, 90, false),
    ],
  };
  assert.deepEqual(dashboardState(noConductor, fine, BAREMETAL_SERVICE, { now: NOW }).status, {
    level: 'error',
    reasons: [
      'no baremetal-conductor is online',
      'baremetal-api on a1: no conductor is online: nodes cannot be acted on',
      'baremetal-conductor on c1 is offline',
    ],
  });
  // A conductor leaving the ring while another serves: amber.
  const draining = dashboardState(
    { ...healthy, services: [...healthy.services, row('baremetal-conductor', 'c2', 2, 1, true)] },
    fine,
    BAREMETAL_SERVICE,
    { now: NOW, offline: (_b, host) => host === 'c2' },
  );
  assert.deepEqual(draining.status, {
    level: 'warning',
    reasons: ['baremetal-conductor on c2 is offline'],
  });
});

test("another service's processes beside, by their own release; the nodes by state", () => {
  const plan = planFromState(state, BAREMETAL_SERVICE, {
    databaseArgs: '',
    startCommand: (b) => b,
  });
  const feed = dashboardState(state, plan, BAREMETAL_SERVICE, {
    now: NOW,
    others: [
      {
        service: {
          name: 'placement',
          binaries: ['placement-api'],
          releases: { '2026.1': { api: '1.39', objects: {}, serviceVersion: 1 } },
        },
        rows: [row('placement-api', 'p1:8778', 1, 4, true)],
      },
    ],
    inventory: {
      title: 'Nodes',
      states: [
        { state: 'active', count: 3, errors: 0, maintenance: 1 },
        { state: 'deploy failed', count: 2, errors: 2, maintenance: 0 },
      ],
    },
  });
  assert.deepEqual(
    feed.services.filter((s) => s.service === 'placement').map((s) => `${s.host} ${s.runs}`),
    ['p1:8778 2026.1'],
  );
  assert.deepEqual(
    { ...feed.inventory, states: feed.inventory?.states.length },
    { title: 'Nodes', total: 5, errors: 2, maintenance: 1, states: 2 },
  );
});
