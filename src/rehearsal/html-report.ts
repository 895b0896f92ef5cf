/**
 * The rehearsal as one self-contained HTML page (`baton rehearse --html FILE`): requests per
 * second and failures over time, p50 and p99 latency over time, each with the steps marked,
 * the rows per object version as the steps move them, and the step table. The charting library
 * (uPlot) and its stylesheet are inlined, so the file opens anywhere without a network. Pure:
 * the caller reads the library's files and writes the page.
 */
import { capacityLines } from './capacity.ts';
import { type RehearsalReport, stepCostLines } from './report.ts';
import type { TimelinePoint } from './timeline.ts';

/** The charting library's browser build and stylesheet, as text. */
export interface ChartAssets {
  readonly script: string;
  readonly css: string;
}

/** What the page's script reads: the timeline, the step boundaries and the version counts. */
interface PageData {
  readonly timeline: readonly TimelinePoint[];
  readonly steps: readonly { id: string; title: string; second: number }[];
  readonly versions: readonly {
    object: string;
    series: readonly { version: string; rows: readonly number[] }[];
  }[];
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

/** JSON that cannot end the script element it sits in. */
const inlineJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028|\u2029/g, '');

/** Text that cannot end the element it is inlined into (a library's source, a stylesheet). */
const inlineText = (text: string, element: 'script' | 'style') =>
  text.replace(new RegExp(`</${element}`, 'gi'), `<\\/${element}`);

function pageData(report: RehearsalReport, points: readonly TimelinePoint[]): PageData {
  const start = report.steps[0]?.from ?? 0;
  const objects = new Set<string>();
  for (const step of report.steps) {
    for (const [object, counts] of Object.entries(step.versions)) {
      if (Object.keys(counts).length > 0) objects.add(object);
    }
  }
  const versions = [...objects].map((object) => {
    const names = new Set<string>();
    for (const step of report.steps)
      for (const v of Object.keys(step.versions[object] ?? {})) names.add(v);
    return {
      object,
      series: [...names].sort().map((version) => ({
        version,
        rows: report.steps.map((step) => step.versions[object]?.[version] ?? 0),
      })),
    };
  });
  return {
    timeline: points,
    steps: report.steps.map((step) => ({
      id: step.id,
      title: step.title,
      second: Math.round((step.from - start) / 100) / 10,
    })),
    versions,
  };
}

function stepRows(report: RehearsalReport): string {
  return report.steps
    .map((step) => {
      const f = step.figures;
      const cells = [
        step.id,
        step.title,
        `${step.api} / ${step.conductor}`,
        String(f.served),
        String(f.failed + f.outcomeFailures),
        String(f.perSecond),
        String(f.p50Ms),
        String(f.p99Ms),
        String(f.maxMs),
      ];
      const failed = f.failed + f.outcomeFailures > 0 ? ' class="failed"' : '';
      return `<tr${failed}>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
    })
    .join('\n');
}

/** The page's own script: three kinds of chart drawn with uPlot from the embedded data. */
const PAGE_SCRIPT = `
const data = JSON.parse(document.getElementById('report-data').textContent);
const seconds = data.timeline.map((p) => p.second);
const width = () => Math.min(1100, document.body.clientWidth - 40);
// Vertical lines at each step's start, with its id, drawn over the plot.
const stepMarks = {
  hooks: {
    draw: [(u) => {
      const { ctx } = u;
      ctx.save();
      ctx.strokeStyle = '#999';
      ctx.fillStyle = '#555';
      ctx.setLineDash([4, 4]);
      ctx.font = (12 * devicePixelRatio) + 'px sans-serif';
      for (const step of data.steps) {
        const x = u.valToPos(step.second, 'x', true);
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.fillText(step.id, x + 3, u.bbox.top + 12 * devicePixelRatio);
      }
      ctx.restore();
    }],
  },
};
const charts = [];
function chart(id, title, series, columns, extra = {}) {
  charts.push(new uPlot({
    title, width: width(), height: 260, plugins: [stepMarks],
    scales: { x: { time: false } },
    axes: [{ label: 'seconds since the first step' }, { label: extra.yLabel ?? '' }],
    series: [{ label: 's' }, ...series],
  }, [seconds, ...columns], document.getElementById(id)));
}
chart('rate', 'Requests per second, and failures', [
  { label: 'requests/s', stroke: '#2a6fdb', width: 1.5 },
  { label: 'failed/s', stroke: '#d62728', width: 2, fill: 'rgba(214,39,40,0.15)' },
], [data.timeline.map((p) => p.requests), data.timeline.map((p) => p.failed)], { yLabel: 'requests' });
chart('latency', 'Latency of the requests sent in each second', [
  { label: 'p50 ms', stroke: '#2ca02c', width: 1.5 },
  { label: 'p99 ms', stroke: '#ff7f0e', width: 1.5 },
], [data.timeline.map((p) => p.p50Ms), data.timeline.map((p) => p.p99Ms)], { yLabel: 'ms' });
const palette = ['#2a6fdb', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
const stepIndex = data.steps.map((_, i) => i);
for (const [n, object] of data.versions.entries()) {
  const holder = document.createElement('div');
  holder.id = 'versions-' + n;
  holder.className = 'versions';
  document.getElementById('versions').appendChild(holder);
  charts.push(new uPlot({
    title: 'Rows of ' + object.object + ' per object version, at the end of each step',
    width: width(), height: 220,
    scales: { x: { time: false } },
    axes: [{ values: (u, ticks) => ticks.map((t) => data.steps[t]?.id ?? ''), incrs: [1] }, { label: 'rows' }],
    series: [{ label: 'step', value: (u, v) => data.steps[v]?.id ?? '' },
      ...object.series.map((s, i) => ({ label: object.object + ' ' + s.version, stroke: palette[i % palette.length], width: 2, points: { show: true } }))],
  }, [stepIndex, ...object.series.map((s) => s.rows)], holder));
}
window.reportCharts = charts.length;
window.reportReady = true;
`;

/** The report as one HTML document. */
export function renderHtmlReport(report: RehearsalReport, assets: ChartAssets): string {
  const data = pageData(report, report.timeline ?? []);
  const verdict = report.ok ? 'passed' : 'FAILED';
  const summary = `${report.previous.name} (${report.previous.commit.slice(0, 12)}) to the working tree, ${report.database}, rpc ${report.rpc}, ${report.stepSeconds} s per step, load at ${report.microversion} aimed at ${report.targetRate} requests/s`;
  const total = report.total;
  const check = report.dataCheck;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Rehearsal ${escapeHtml(verdict)}: ${escapeHtml(report.previous.name)} to the working tree</title>
<style>${inlineText(assets.css, 'style')}</style>
<style>
body { font-family: sans-serif; margin: 20px; color: #222; }
.verdict { font-weight: bold; color: ${report.ok ? '#1a7f37' : '#c62828'}; }
table { border-collapse: collapse; margin: 12px 0; font-size: 13px; }
td, th { border: 1px solid #ccc; padding: 3px 6px; text-align: right; }
td:nth-child(2), td:nth-child(3), th { text-align: left; }
tr.failed td { background: #fde2e2; }
.chart, .versions { margin: 16px 0; }
</style>
</head>
<body>
<h1>Rehearsal <span class="verdict">${escapeHtml(verdict)}</span></h1>
<p>${escapeHtml(summary)}.</p>
<p id="totals">${total.requests} requests, ${total.served} served, ${total.failed} failed; ${total.perSecond} requests/s; p50 ${total.p50Ms} ms, p99 ${total.p99Ms} ms, max ${total.maxMs} ms.
Data check: ${escapeHtml(check.summary)}; ${check.problems.length === 0 ? 'clean' : `${check.problems.length} problems`}.</p>
<div class="chart" id="rate"></div>
<div class="chart" id="latency"></div>
<div id="versions"></div>
<h2>Steps</h2>
<table id="steps">
<tr><th>step</th><th>what happens</th><th>API / conductor</th><th>served</th><th>failed</th><th>req/s</th><th>p50 ms</th><th>p99 ms</th><th>max ms</th></tr>
${stepRows(report)}
</table>
<h2>Where the time went</h2>
<p>Each step's share of a core per process (the machine has ${report.cores ?? '?'} cores, ${(report.cores ?? 1) * 100} % in all), and its slowest requests with what the cluster did while they waited.</p>
<pre id="costs">${escapeHtml(stepCostLines(report).join('\n'))}</pre>
${
  report.capacity === undefined
    ? ''
    : `<h2>Capacity</h2>\n<pre id="capacity">${escapeHtml(capacityLines(report.capacity, report.targetRate, report.steps, report.cores ?? 1).join('\n'))}</pre>\n`
}<script type="application/json" id="report-data">${inlineJson(data)}</script>
<script>${inlineText(assets.script, 'script')}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
