/** The report: one row per step, the verdict, and what it prints about failures. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type RehearsalReport, rehearsalPassed, renderReport } from '../../src/rehearsal/report.ts';
import { RequestLog, windowFigures } from '../../src/rehearsal/request-log.ts';

function report(overrides: Partial<RehearsalReport> = {}): Omit<RehearsalReport, 'ok'> {
  const log = new RequestLog();
  log.add({
    kind: 'list',
    method: 'GET',
    path: '/v1/nodes',
    startedAt: 10,
    ms: 4,
    status: 200,
    ok: true,
  });
  const figures = windowFigures(log, 0, 1000);
  return {
    previous: { name: 'zed', commit: 'bef0601c0bf435ccff120f73efd49f624bcc374c' },
    database: 'sqlite',
    rpc: 'http',
    stepSeconds: 1,
    targetRate: 60,
    microversion: '1.80',
    steps: [
      {
        id: '1.1',
        title: 'conductor 1 to the new release, pinned',
        api: 'all old',
        conductor: 'some old, some new pinned',
        processes: [
          {
            tier: 'conductor',
            host: 'r1-cond1-pinned',
            build: 'pinned',
            runs: 'new pinned to zed',
            serviceVersion: 2,
            caps: {
              release: 'zed',
              apiMax: '1.80',
              rpcCap: '1.0',
              objects: { Node: '1.36', Port: '1.10' },
            },
          },
        ],
        commands: [],
        from: 0,
        to: 1000,
        figures,
        versions: { Node: { '1.36': 3, '1.37': 1 }, Chassis: {} },
      },
    ],
    total: figures,
    failedRequests: [],
    outcomeFailures: [],
    processExits: [{ name: 'r1-cond1-previous', status: 0 }],
    dataCheck: {
      summary: '1 nodes and 0 ports acknowledged; 1 nodes and 0 ports in the database',
      compared: { 'name @1.80': 1, 'shard @1.82': 1 },
      problems: [],
    },
    ...overrides,
  };
}

describe('rehearsal report', () => {
  it('passes only with no failed request, no failed outcome, clean exits, commands and data', () => {
    assert.equal(rehearsalPassed(report()), true);
    const failed = report();
    const badTotal = { ...failed.total, failed: 1 };
    assert.equal(rehearsalPassed({ ...failed, total: badTotal }), false);
    assert.equal(rehearsalPassed(report({ outcomeFailures: [{ at: 1, what: 'x' }] })), false);
    assert.equal(rehearsalPassed(report({ processExits: [{ name: 'a', status: 137 }] })), false);
    const problems = { ...failed.dataCheck, problems: ['node a: reservation left by c1'] };
    assert.equal(rehearsalPassed(report({ dataCheck: problems })), false);
    const steps = failed.steps.map((step) => ({
      ...step,
      commands: [{ command: 'baton upgrade-check', status: 1, seconds: 1, output: '' }],
    }));
    assert.equal(rehearsalPassed(report({ steps })), false);
  });

  it('prints a row per step with the caps in force and the rows per object version', () => {
    const text = renderReport({ ...report(), ok: true });
    assert.match(text, /\| 1\.1 +\| all old/);
    assert.match(
      text,
      /r1-cond1-pinned: new pinned to zed v2, rpc 1\.0 api 1\.80 Node 1\.36 Port 1\.10/,
    );
    assert.match(text, /Node 1\.36:3 1\.37:1/);
    assert.doesNotMatch(text, /Chassis/, 'an empty table has no line');
    assert.match(text, /Processes: 1 stopped, every one with exit 0/);
    assert.match(text, /Data check: .*clean/);
    assert.match(
      text,
      /compared, by field and the microversion it was written at: name @1.80 1, shard @1.82 1/,
    );
    assert.match(text, /Rehearsal passed\.$/);
  });

  it("prints each step's CPU per process against the machine, and its slowest requests", () => {
    const base = report();
    const [step] = base.steps;
    const text = renderReport({
      ...base,
      cores: 2,
      steps: [
        {
          ...(step as NonNullable<typeof step>),
          cpu: { 'r1-api1-previous': 60, 'load generator': 20, machine: 150 },
          slowest: [
            {
              kind: 'provision',
              method: 'PUT',
              path: '/v1/nodes/n1/states/provision',
              startedAt: 10,
              ms: 812.5,
              status: 202,
              during: ['r1-cond1-previous stopping'],
              inFlight: 31,
            },
            {
              kind: 'show',
              method: 'GET',
              path: '/v1/nodes/n2',
              startedAt: 20,
              ms: 90,
              status: 200,
              during: [],
              inFlight: 2,
            },
          ],
        },
      ],
      ok: true,
    });
    assert.match(
      text,
      /step 1\.1 CPU, % of a core: r1-api1-previous 60, load generator 20; in all 80 of 200; the machine was 75 % busy \(70 went to other processes: the database server, commands, other work\)/,
    );
    assert.match(
      text,
      /slow: 812\.5 ms PUT \/v1\/nodes\/n1\/states\/provision \(provision, 202\); 31 other requests in flight; during: r1-cond1-previous stopping/,
    );
    assert.match(text, /slow: 90 ms GET \/v1\/nodes\/n2 .*during: no cluster event/);
  });
});
