/**
 * The rehearsal's HTML page (src/rehearsal/html-report.ts) from a report made here: one file
 * that needs nothing from the network, with what the report says escaped, and, opened in
 * Debian's chromium (playwright-core), the charts drawn: requests and failures, latency, and
 * one chart per object table with rows, each canvas holding drawn pixels, no script error.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { readChartAssets } from '../../src/rehearsal/chart-assets.ts';
import { renderHtmlReport } from '../../src/rehearsal/html-report.ts';
import type { RehearsalReport, StepReport } from '../../src/rehearsal/report.ts';
import type { WindowFigures } from '../../src/rehearsal/request-log.ts';
import { timeline } from '../../src/rehearsal/timeline.ts';

const CHROMIUM = '/usr/bin/chromium';
const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);

const figures = (failed = 0): WindowFigures => ({
  requests: 600,
  served: 600 - failed,
  failed,
  outcomeFailures: 0,
  perSecond: 60,
  p50Ms: 12,
  p99Ms: 80,
  maxMs: 140,
  byKind: { list: 300 },
});

function step(id: string, index: number, versions: StepReport['versions'], title = `step ${id}`) {
  return {
    id,
    title,
    api: 'all previous',
    conductor: index === 0 ? 'all previous' : 'all new pinned',
    processes: [],
    commands: [],
    from: T0 + index * 10_000,
    to: T0 + (index + 1) * 10_000,
    figures: figures(id === '2.1' ? 1 : 0),
    versions,
  } satisfies StepReport;
}

function makeReport(): RehearsalReport {
  const steps = [
    step('0', 0, { Node: { '1.36': 40 }, Port: { '1.10': 12 }, Chassis: {} }),
    step('1.1', 1, { Node: { '1.36': 50 }, Port: { '1.10': 15 } }),
    step('2.1', 2, { Node: { '1.36': 55 }, Port: { '1.10': 18 } }, 'a title with </script> in it'),
    step('3.4', 3, { Node: { '1.36': 20, '1.37': 45 }, Port: { '1.10': 5, '1.11': 16 } }),
  ];
  const records = Array.from({ length: 2400 }, (_, i) => ({
    kind: 'list' as const,
    method: 'GET',
    path: '/v1/nodes',
    startedAt: T0 + i * (40_000 / 2400),
    ms: 5 + (i % 50),
    status: i === 1300 ? 503 : 200,
    ok: i !== 1300,
  }));
  return {
    previous: { name: 'zed', commit: 'bef0601c0bf435ccff120f73efd49f624bcc374c' },
    database: 'sqlite',
    rpc: 'http',
    stepSeconds: 10,
    targetRate: 60,
    microversion: '1.80',
    steps,
    total: figures(1),
    failedRequests: [],
    outcomeFailures: [],
    processExits: [],
    dataCheck: {
      summary: '65 nodes and 21 ports acknowledged; 65 nodes and 21 ports in the database',
      compared: {},
      problems: [],
    },
    timeline: timeline(records, T0, T0 + 40_000),
    ok: false,
  };
}

describe('the timeline', () => {
  it('puts each request in the second it was sent, failures and percentiles per bucket', () => {
    const records = [0, 100, 900, 1500, 2999].map((at, i) => ({
      kind: 'list' as const,
      method: 'GET',
      path: '/',
      startedAt: T0 + at,
      ms: (i + 1) * 10,
      status: i === 3 ? 500 : 200,
      ok: i !== 3,
    }));
    const points = timeline(records, T0, T0 + 4000);
    assert.deepEqual(
      points.map((p) => [p.second, p.requests, p.failed, p.p50Ms, p.p99Ms]),
      [
        [0, 3, 0, 20, 30],
        [1, 1, 1, 40, 40],
        [2, 1, 0, 50, 50],
        [3, 0, 0, 0, 0],
      ],
    );
  });
});

describe('the HTML report', () => {
  let html: string;
  let dir: string;

  before(async () => {
    html = renderHtmlReport(makeReport(), await readChartAssets());
    dir = mkdtempSync(join(tmpdir(), 'baton-html-report-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('stands alone and escapes what the report says', () => {
    assert.doesNotMatch(
      html,
      /(src|href)\s*=\s*["']?(https?:)?\/\//i,
      'nothing loaded from a network',
    );
    assert.equal(html.match(/<\/script>/g)?.length, 3, 'only the three script elements close');
    assert.match(html, /a title with &lt;\/script&gt; in it/);
    assert.match(html, /Rehearsal <span class="verdict">FAILED<\/span>/);
    assert.match(html, /<tr class="failed"><td>2\.1<\/td>/);
  });

  it('draws its charts in chromium without a script error', async (t) => {
    if (!existsSync(CHROMIUM)) assert.fail(`${CHROMIUM} is missing: apt-get install chromium`);
    const file = join(dir, 'report.html');
    writeFileSync(file, html);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    t.after(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    // Offline as a reader may be: any request beyond the file itself fails the test.
    const requested: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) requested.push(request.url());
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction('window.reportReady === true');
    assert.deepEqual(errors, []);
    assert.deepEqual(requested, []);
    // Two timeline charts, and one per object table that held rows (Node, Port; not Chassis).
    assert.equal(await page.evaluate('window.reportCharts'), 4);
    // Counted in the page (a string: the test's TypeScript has no DOM types).
    const painted = (await page.evaluate(`[...document.querySelectorAll('canvas')].map((canvas) => {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let drawn = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn++;
      return drawn;
    })`)) as number[];
    assert.equal(painted.length, 4);
    for (const drawn of painted) assert.ok(drawn > 500, `a canvas with ${drawn} pixels drawn`);
    const legend = await page.locator('.u-legend').allInnerTexts();
    const text = legend.join('\n');
    for (const label of ['requests/s', 'failed/s', 'p50 ms', 'p99 ms', 'Node 1.37', 'Port 1.11']) {
      assert.ok(text.includes(label), `${label} in the legends`);
    }
  });
});
