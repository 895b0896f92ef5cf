/**
 * The dashboard page: plain HTML with its style and script inline (no build step, nothing
 * fetched from elsewhere). The script polls `state.json` beside the page every 1.5 s and
 * redraws. A process that leaves the services table (a clean stop removes its row) stays on
 * the page as offline, with the time it was last seen, until the page is reloaded: a stop is
 * what an operator watching an upgrade wants to see. The banner is green only while the
 * service can do its work (every binary online, no process reporting a problem); a process
 * that is live but says it cannot work is amber, not green.
 */

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1d2330; background: #f6f7f9; }
h1 { font-size: 1.3em; margin: 0 0 .2em; } h2 { font-size: 1.05em; margin: 1.4em 0 .4em; }
table { border-collapse: collapse; background: #fff; } td, th { padding: .3em .7em; border: 1px solid #d5d9e0; text-align: left; }
th { background: #eceff3; font-weight: 600; }
.live { color: #116329; font-weight: 600; } .offline { color: #b42318; font-weight: 600; }
.unhealthy { color: #9a5b00; font-weight: 600; } tr.unhealthy-row td { background: #fff6e5; }
#status { padding: .5em .8em; margin: .6em 0; border-radius: 4px; font-weight: 600; }
#status.ok { background: #e6f4ea; color: #116329; } #status.warning { background: #fff6e5; color: #9a5b00; }
#status.error { background: #fdf0ef; color: #b42318; }
.empty { color: #5b6474; }
tr.offline-row td { background: #fdf0ef; }
.meta { color: #5b6474; } .problem { color: #b42318; }
.bar { display: inline-block; width: 10em; height: .8em; background: #e3e6eb; vertical-align: middle; }
.bar > span { display: block; height: 100%; background: #2f6fde; }
code { background: #eceff3; padding: 0 .3em; }
`;

const SCRIPT = `
const feed = location.pathname.replace(/\\/$/, '') + '/state.json';
const seen = new Map();
const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; };
const row = (cells, cls) => { const tr = el('tr', undefined, cls); for (const c of cells) tr.append(c instanceof Node ? c : el('td', c)); return tr; };
const td = (node) => { const cell = el('td'); cell.append(node); return cell; };
function bar(done, total) {
  // An empty table has nothing to bring up: no bar, not a full one.
  if (total === 0) return el('span', 'no rows', 'empty');
  const b = el('span', undefined, 'bar'); const fill = el('span');
  fill.style.width = Math.round(100 * done / total) + '%'; b.append(fill); return b;
}
function render(s) {
  const up = s.upgrade;
  // A fresh install is no upgrade from the previous release: its release alone.
  document.getElementById('title').textContent = s.service + ': ' + (s.previousReleaseLabel && !up.fresh ? s.previousReleaseLabel + ' to ' : '') + s.releaseLabel;
  document.getElementById('step').textContent = up.fresh ? 'a fresh install of ' + s.releaseLabel + ': nothing to upgrade' : up.complete ? 'upgrade complete' :
    (up.current ? 'at step ' + up.current : 'before step 0') + (up.next ? '; next: step ' + up.next.id + ', ' + up.next.what : '');
  const status = document.getElementById('status'); status.className = s.status.level;
  status.textContent = s.status.level === 'ok' ? 'serving: every process online and healthy' :
    (s.status.level === 'error' ? 'cannot do its work: ' : 'attention: ') + s.status.reasons.join('; ');
  const problems = document.getElementById('problems'); problems.replaceChildren(...up.problems.map((p) => el('div', p, 'problem')));
  const now = Date.parse(s.generatedAt);
  for (const svc of s.services) seen.set(svc.service + ' ' + svc.binary + ' ' + svc.host, { ...svc, at: now });
  const body = document.querySelector('#services tbody'); body.replaceChildren();
  const keys = [...seen.keys()].sort();
  for (const key of keys) {
    const svc = seen.get(key);
    const current = s.services.find((x) => x.service + ' ' + x.binary + ' ' + x.host === key);
    const state = current ? current.state : 'offline';
    const health = current && state === 'live' ? current.health : null;
    const age = current ? current.heartbeatSecondsAgo : Math.round((now - svc.at) / 1000) + svc.heartbeatSecondsAgo;
    const shown = !current ? 'offline (left)' : health ? 'live, cannot work: ' + health : state;
    const cls = health ? 'unhealthy' : state;
    const tr = row([svc.service, svc.binary, svc.host, svc.pid ?? '', svc.runs, svc.version, svc.pin ?? '', svc.capsRelease ?? 'its own',
      age + ' s ago', td(el('span', shown, cls))], cls + '-row');
    tr.dataset.host = svc.host; tr.dataset.state = state; tr.dataset.health = health ? 'problem' : 'ok'; body.append(tr);
  }
  const caps = s.caps;
  document.getElementById('caps').textContent = caps.description + (caps.rpcCap ? '; RPC cap ' + caps.rpcCap : '') +
    (caps.apiMax ? '; API max ' + caps.apiMax : '') + '; objects ' + Object.entries(caps.objects).map(([k, v]) => k + ' ' + v).join(', ');
  document.getElementById('schema').textContent = s.schema.state + (s.schema.version ? ' at ' + s.schema.version : '') +
    (s.schema.pending ? ', ' + s.schema.pending + ' migration(s) to apply' : '');
  const migrations = document.querySelector('#migrations tbody'); migrations.replaceChildren();
  for (const m of s.onlineMigrations) migrations.append(row([m.name, m.pending ?? '?', m.waiting ?? '']));
  const inv = s.inventory; const inventory = document.getElementById('inventory'); inventory.hidden = !inv;
  if (inv) {
    document.getElementById('inventory-title').textContent = inv.title;
    document.getElementById('inventory-total').textContent = inv.total + ' in all, ' + inv.errors + ' with an error, ' + inv.maintenance + ' in maintenance';
    const states = document.querySelector('#inventory tbody'); states.replaceChildren();
    for (const c of inv.states) { const tr = row([c.state, c.count, c.errors, c.maintenance]); tr.dataset.state = c.state; states.append(tr); }
  }
  const tables = document.querySelector('#tables tbody'); tables.replaceChildren();
  for (const t of s.objectTables) tables.append(row([t.objectName + ' (' + t.table + ')', t.latest ?? '', t.atLatest + ' of ' + t.rows, td(bar(t.atLatest, t.rows))]));
  const r = s.rehearsal; const rehearsal = document.getElementById('rehearsal');
  rehearsal.hidden = !r;
  if (r) document.getElementById('rehearsal-step').textContent = 'step ' + r.step + ' (' + r.title + '): ' + r.served + ' requests served, ' + r.failed + ' failed';
  document.getElementById('updated').textContent = 'updated ' + new Date(now).toLocaleTimeString();
}
async function poll() {
  try {
    const answer = await fetch(feed, { cache: 'no-store' });
    if (!answer.ok) throw new Error('HTTP ' + answer.status);
    render(await answer.json());
    document.getElementById('error').textContent = '';
  } catch (error) {
    document.getElementById('error').textContent = 'cannot read ' + feed + ': ' + error.message;
  }
  setTimeout(poll, 1500);
}
poll();
`;

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Baton: rolling upgrade</title>
<style>${STYLE}</style>
</head>
<body>
<h1 id="title">Baton</h1>
<div class="meta"><span id="step"></span> · <span id="updated">loading…</span> <span id="error" class="problem"></span></div>
<div id="status"></div>
<div id="problems"></div>
<section id="rehearsal" hidden><h2>Rehearsal</h2><div id="rehearsal-step"></div></section>
<h2>Services</h2>
<table id="services"><thead><tr><th>service</th><th>binary</th><th>host</th><th>pid</th><th>runs</th><th>service version</th><th>pin</th><th>caps at</th><th>heartbeat</th><th>state</th></tr></thead><tbody></tbody></table>
<section id="inventory" hidden><h2 id="inventory-title"></h2><div id="inventory-total" class="meta"></div>
<table><thead><tr><th>state</th><th>count</th><th>with an error</th><th>in maintenance</th></tr></thead><tbody></tbody></table></section>
<h2>Caps in force for a process starting now</h2>
<div id="caps"></div>
<h2>Schema</h2>
<div id="schema"></div>
<h2>Online data migrations</h2>
<table id="migrations"><thead><tr><th>migration</th><th>rows pending</th><th>waiting for</th></tr></thead><tbody></tbody></table>
<h2>Rows at the latest object version</h2>
<table id="tables"><thead><tr><th>object</th><th>latest</th><th>rows</th><th>progress</th></tr></thead><tbody></tbody></table>
<script>${SCRIPT}</script>
</body>
</html>
`;
