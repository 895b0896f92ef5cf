/**
 * The plan's rules on their own (the stages of a real deployment: test/cli/upgrade-plan.test.ts):
 * the rolling-upgrade doc's table for two binaries, the table of a service without a pinned phase, a process
 * newer than the code, a schema ahead of it, no process at all.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type PlanInput,
  type PlanProcess,
  planUpgrade,
  stepTable,
} from '../../src/service/upgrade-plan.ts';

const seen = new Date();
const process = (binary: string, host: string, version: number, caps?: string): PlanProcess => ({
  binary,
  host,
  version,
  live: true,
  lastSeen: seen,
  capsRelease: caps,
  pinRelease: caps,
});

function input(overrides: Partial<PlanInput>): PlanInput {
  return {
    service: 'baremetal',
    release: 'antelope',
    previousRelease: 'zed',
    codeVersion: 2,
    releaseOfVersion: (v) => (v === 1 ? 'zed' : 'antelope'),
    order: ['conductor', 'api'],
    pinnedPhase: true,
    processes: [],
    schema: { state: 'current', pending: [] },
    onlineMigrations: [],
    databaseArgs: '--db sqlite:x',
    startCommand: (binary) => `baton ${binary}`,
    ...overrides,
  };
}

test("the rolling-upgrade doc's table: the steps and each tier's words", () => {
  const table = stepTable(['conductor', 'api'], true, 'zed');
  assert.deepEqual(
    table.map((s) => `${s.id} ${s.tiers.api} / ${s.tiers.conductor}`),
    [
      '0 all old / all old',
      '1.1 all old / some old, some new pinned',
      '1.2 all old / all new pinned',
      '2.1 some old, some new pinned / all new pinned',
      '2.2 all new pinned / all new pinned',
      '3.1 all new pinned / some new pinned, some new',
      '3.2 all new pinned / all new',
      '3.3 some new pinned, some new / all new',
      '3.4 all new / all new',
      'done all new / all new',
    ],
  );
});

test('a service without versioned objects: no pinned phase, its APIs restarted with the new code', () => {
  const placement = input({ service: 'placement', order: ['placement-api'], pinnedPhase: false });
  assert.deepEqual(
    stepTable(placement.order, false).map((s) => s.id),
    ['0', '1.1', '1.2', 'done'],
  );
  const plan = planUpgrade({
    ...placement,
    processes: [process('placement-api', 'p1', 1), process('placement-api', 'p2', 2)],
  });
  assert.equal(plan.current, '1.1');
  assert.equal(plan.next?.id, '1.2');
  assert.deepEqual(plan.next?.commands, [
    'kill -TERM <pid of placement-api on p1>',
    "baton placement-api --config-file <its config file>   # with the new release's baton",
  ]);
});

test('a process newer than this code, or a schema ahead of it: no step, the newer release plans', () => {
  const newer = planUpgrade(input({ processes: [process('api', 'a1', 3)] }));
  assert.equal(newer.next, undefined);
  assert.match(newer.problems[0] ?? '', /api on a1 .*service version 3, newer than this code's 2/);
  const ahead = planUpgrade(input({ schema: { state: 'ahead', pending: [] } }));
  assert.match(ahead.problems[0] ?? '', /ahead of this code/);
});

test('no process live: the schema and the data decide', () => {
  const behind = planUpgrade(input({ schema: { state: 'behind', pending: ['0002'] } }));
  assert.equal(behind.next?.id, '0');
  const pending = planUpgrade(input({ onlineMigrations: [{ name: 'm', pending: 5 }] }));
  assert.equal(pending.next?.id, 'done');
  assert.equal(pending.pendingOnlineMigrations, 5);
  const done = planUpgrade(input({ onlineMigrations: [{ name: 'm', pending: 0 }] }));
  assert.equal(done.complete, true);
  // A probe that failed is not "nothing pending".
  const unknown = planUpgrade(input({ onlineMigrations: [{ name: 'm', pending: undefined }] }));
  assert.equal(unknown.complete, false);
});

test('processes of the new code on a schema not upgraded: a problem, the schema first', () => {
  const plan = planUpgrade(
    input({
      schema: { state: 'behind', pending: ['0002'] },
      processes: [process('conductor', 'c1', 2, 'zed')],
    }),
  );
  assert.equal(plan.next?.id, '0');
  assert.match(plan.problems[0] ?? '', /upgrade the schema first/);
});

test('going back from 2.2: safe now, the APIs first, with the previous release', () => {
  const plan = planUpgrade(
    input({
      processes: [
        process('conductor', 'c1', 2, 'zed'),
        process('conductor', 'c2', 2, 'zed'),
        process('api', 'a1', 2, 'zed'),
      ],
    }),
  );
  assert.equal(plan.current, '2.2');
  assert.equal(plan.back?.safeNow, true);
  assert.deepEqual(plan.back?.commands, [
    'kill -TERM <pid of api on a1>',
    "baton api --config-file <its config file>   # with zed's baton",
  ]);
});

test('a tier restarted back out of the table order, everything pinned: a note, not a problem', () => {
  // Going back from 2.2 with a conductor first: the table never lists this, and it is safe.
  const plan = planUpgrade(
    input({
      processes: [
        process('conductor', 'c1', 1),
        process('conductor', 'c2', 2, 'zed'),
        process('api', 'a1', 2, 'zed'),
      ],
    }),
  );
  assert.deepEqual(plan.problems, []);
  assert.match(plan.note ?? '', /between steps 0 and 2\.2 in an order the table does not list/);
  assert.equal(plan.next?.id, '1.1');
  assert.match(plan.next?.what ?? '', /conductor on c1 with the new code, pinned to zed/);
  assert.equal(plan.back?.safeNow, true);
  assert.match(plan.back?.commands[0] ?? '', /api on a1/);
});

test('going back from 3.1: pin again, rewrite the rows down, then replace', () => {
  const rows = [{ table: 'nodes', objectName: 'Node', version: '1.37', count: 3 }];
  const plan = planUpgrade(
    input({
      processes: [
        process('conductor', 'c1', 2),
        process('conductor', 'c2', 2, 'zed'),
        process('api', 'a1', 2, 'zed'),
      ],
      rowsAbovePrevious: rows,
      typesUnknownToPrevious: [{ objectName: 'NodeInventory', table: 'node_inventory', count: 2 }],
    }),
  );
  assert.equal(plan.current, '3.1');
  assert.equal(plan.back?.safeNow, false);
  assert.match(
    plan.back?.why ?? '',
    /1 process\(es\) of antelope run unpinned; rows zed cannot read: nodes Node 1\.37: 3 row/,
  );
  assert.deepEqual(plan.back?.commands, [
    '# conductor on c1: in its config file, [DEFAULT] pin_release_version = zed',
    'kill -TERM <pid of conductor on c1>; baton conductor --config-file <its config file>',
    "baton db downgrade-rows --service baremetal --to zed --db sqlite:x   # with antelope's baton, until it exits 0",
  ]);
  assert.match(
    plan.back?.notes[0] ?? '',
    /zed does not know NodeInventory: its 2 row\(s\) in node_inventory stay/,
  );
});

test('a previous-release process beside rows it cannot read: a problem naming it', () => {
  const plan = planUpgrade(
    input({
      processes: [
        process('conductor', 'c1', 2),
        process('conductor', 'c2', 1),
        process('api', 'a1', 2, 'zed'),
      ],
      rowsAbovePrevious: [{ table: 'nodes', objectName: 'Node', version: '1.37', count: 3 }],
    }),
  );
  assert.match(
    plan.problems.join('\n'),
    /conductor on c2 run\(s\) zed, which cannot read nodes Node 1\.37: 3 row\(s\): they fail on those rows/,
  );
});

test("the next step's commands name the pid and config files the process's row records", () => {
  const recorded: PlanProcess = {
    ...process('conductor', 'c1', 1),
    pid: 4242,
    machine: 'm1',
    configFiles: ['/etc/ironic/ironic.conf', '/etc/ironic/conductor-1.conf'],
  };
  const plan = planUpgrade(input({ processes: [recorded, process('api', 'a1', 1)] }));
  assert.equal(plan.next?.id, '1.1');
  assert.deepEqual(plan.next?.commands, [
    '# in /etc/ironic/conductor-1.conf: [DEFAULT] pin_release_version = zed',
    'kill -TERM 4242   # on m1',
    "baton conductor --config-file /etc/ironic/ironic.conf --config-file /etc/ironic/conductor-1.conf   # with the new release's baton",
  ]);
  // A row of older code records neither: the placeholders stay.
  const unknown = planUpgrade(input({ processes: [process('conductor', 'c1', 1)] }));
  assert.deepEqual(unknown.next?.commands.slice(1), [
    'kill -TERM <pid of conductor on c1>',
    "baton conductor --config-file <its config file>   # with the new release's baton",
  ]);
});

test('a fresh install is no finished upgrade: nothing to upgrade, no step done', () => {
  const fresh = input({
    schema: { state: 'current', pending: [], appliedByOlderCode: false },
    processes: [process('conductor', 'c1', 2), process('api', 'a1', 2)],
    onlineMigrations: [{ name: 'm', pending: 0 }],
    rowsBelowLatest: 0,
  });
  const plan = planUpgrade(fresh);
  assert.equal(plan.fresh, true);
  assert.equal(plan.complete, false);
  assert.equal(plan.current, undefined);
  assert.equal(plan.next, undefined);
  assert.ok(plan.steps.every((step) => step.state === 'not needed'));
  // The same deployment whose schema older code upgraded: a finished upgrade.
  const upgraded = planUpgrade({
    ...fresh,
    schema: { state: 'current', pending: [], appliedByOlderCode: true },
  });
  assert.equal(upgraded.fresh, false);
  assert.equal(upgraded.complete, true);
  // An older process registered, even dead, or rows at older versions: not fresh either.
  const dead = { ...process('conductor', 'old', 1), live: false };
  assert.equal(planUpgrade({ ...fresh, processes: [dead] }).fresh, false);
  assert.equal(planUpgrade({ ...fresh, rowsBelowLatest: 3 }).fresh, false);
  const pinned = process('conductor', 'c1', 2, 'zed');
  assert.equal(planUpgrade({ ...fresh, processes: [pinned] }).fresh, false);
});
