/**
 * docs/design.md's layers, checked on the import graph of `src/`: arrows point down the list
 * only (a folder imports the folders above it, never one below); `src/rpc` finds its peers
 * through an interface, never through `src/db`; the pure folders import no I/O module and
 * no folder that does I/O; nothing imports `src/cli`. A failure names the file, the line
 * and the import.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type ImportArrow, readImportGraph, readImports } from './support/import-graph.ts';

const ROOT = join(import.meta.dirname, '../..');

/** docs/design.md's layers, top to bottom; a folder may import only folders of a lower rank. */
const LAYERS: Readonly<Record<string, number>> = {
  objects: 0,
  releases: 1,
  microversion: 2,
  // Python's words for the OpenStack-compatible services (repr, jsonschema errors); beside
  // microversion: neither imports the other.
  'python-compat': 2,
  rpc: 3,
  db: 4,
  service: 5,
  auth: 6,
  // oslo.policy's engine: reads the credentials the auth layer establishes.
  policy: 7,
  placement: 8,
  baremetal: 8,
  rehearsal: 9,
  cli: 10,
};
const TOOLKIT = new Set([
  'objects',
  'releases',
  'microversion',
  'python-compat',
  'rpc',
  'db',
  'service',
  'auth',
  'policy',
]);
const PURE = new Set(['objects', 'releases']);
/** What a pure folder may import besides the pure folders: computation, no I/O. */
const PURE_MODULES = new Set(['node:crypto']);
const DATABASE_DRIVERS = new Set(['kysely', 'pg', 'mysql2', 'better-sqlite3']);

const folderOf = (path: string) => path.split('/')[1] ?? '';
const where = (arrow: ImportArrow) => `${arrow.from}:${arrow.line} imports '${arrow.specifier}'`;
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** A service's tiers: each runs in its own processes, so neither imports the other. */
const SERVICE_TIERS: Readonly<Record<string, readonly string[]>> = {
  baremetal: ['api', 'conductor'],
};

/** `src/<service>/<sub>/…` → `<sub>`; a file at the service's root has none. */
const subfolderOf = (path: string) => {
  const parts = path.split('/');
  return parts.length > 3 ? parts[2] : undefined;
};

/** Why an arrow crosses a service's tiers, or undefined. */
function tierViolation(arrow: ImportArrow, service: string): string | undefined {
  const tiers = SERVICE_TIERS[service];
  if (tiers === undefined || arrow.target === undefined) return undefined;
  const from = subfolderOf(arrow.from);
  const to = subfolderOf(arrow.target);
  if (from === undefined || to === undefined || from === to || !tiers.includes(to))
    return undefined;
  if (tiers.includes(from)) {
    return `${where(arrow)}: the ${from} tier of src/${service} never imports its ${to} tier`;
  }
  return `${where(arrow)}: src/${service}/${from} is shared by both tiers and may not import the ${to} tier`;
}

/** Why an arrow breaks the layering, or undefined when it does not. */
function violation(arrow: ImportArrow): string | undefined {
  const from = folderOf(arrow.from);
  const fromRank = LAYERS[from];
  if (fromRank === undefined)
    return `${arrow.from}: src/${from} is not one of docs/design.md's layers`;
  if (arrow.target === undefined) {
    const module = arrow.specifier;
    if (PURE.has(from) && !PURE_MODULES.has(module)) {
      const kind = builtins.has(module) ? 'a Node module that does I/O' : 'a package';
      return `${where(arrow)}: src/${from} is pure and may not import ${kind}`;
    }
    if (TOOLKIT.has(from) && from !== 'db' && DATABASE_DRIVERS.has(module)) {
      return `${where(arrow)}: only src/db and the services talk to the database`;
    }
    return undefined;
  }
  if (!arrow.target.startsWith('src/')) return `${where(arrow)}: outside src/`;
  const to = folderOf(arrow.target);
  if (to === from) return tierViolation(arrow, from);
  const toRank = LAYERS[to];
  if (toRank === undefined)
    return `${where(arrow)}: src/${to} is not one of docs/design.md's layers`;
  if (to === 'cli') return `${where(arrow)}: nothing imports src/cli (argument parsing and output)`;
  if (from === 'rpc' && to === 'db') {
    return `${where(arrow)}: src/rpc finds peers through an interface, never through src/db`;
  }
  if (PURE.has(from) && !PURE.has(to)) {
    return `${where(arrow)}: src/${from} is pure and may not import src/${to}`;
  }
  if (toRank >= fromRank) {
    const what = TOOLKIT.has(from) && !TOOLKIT.has(to) ? 'a toolkit folder importing ' : '';
    return `${where(arrow)}: ${what}src/${to} is not above src/${from} in docs/design.md's layers`;
  }
  return undefined;
}

describe('the import graph of src/', () => {
  const graph = readImportGraph(ROOT);

  test('is read whole: every relative import names a file that exists', () => {
    assert.ok(graph.length > 500, `only ${graph.length} imports read`);
    const missing = graph.filter(
      (a) => a.target !== undefined && !existsSync(join(ROOT, a.target)),
    );
    assert.deepEqual(missing.map(where), []);
  });

  test("has no arrow pointing up docs/design.md's layers", () => {
    const found = graph.flatMap((arrow) => violation(arrow) ?? []);
    assert.deepEqual(found, [], `arrows against the layers:\n${found.join('\n')}`);
  });
});

describe('the layer rules themselves', () => {
  const arrow = (from: string, specifier: string, target?: string): ImportArrow =>
    target === undefined ? { from, specifier, line: 1 } : { from, specifier, line: 1, target };

  test('each kind of upward arrow is named with its file and import', () => {
    const cases: [ImportArrow, RegExp][] = [
      [
        arrow('src/rpc/config.ts', '../db/connect.ts', 'src/db/connect.ts'),
        /^src\/rpc\/config\.ts:1 imports '\.\.\/db\/connect\.ts': src\/rpc finds peers/,
      ],
      [
        arrow('src/db/x.ts', '../placement/config.ts', 'src/placement/config.ts'),
        /a toolkit folder importing src\/placement/,
      ],
      [
        arrow('src/objects/x.ts', 'node:net'),
        /src\/objects is pure .* a Node module that does I\/O/,
      ],
      [arrow('src/releases/x.ts', 'fastify'), /src\/releases is pure and may not import a package/],
      [
        arrow('src/releases/x.ts', '../microversion/v.ts', 'src/microversion/v.ts'),
        /pure and may not import src\/microversion/,
      ],
      [
        arrow('src/placement/x.ts', '../rehearsal/r.ts', 'src/rehearsal/r.ts'),
        /src\/rehearsal is not above src\/placement/,
      ],
      [
        arrow('src/placement/x.ts', '../baremetal/b.ts', 'src/baremetal/b.ts'),
        /src\/baremetal is not above src\/placement/,
      ],
      [
        arrow('src/rehearsal/x.ts', '../cli/main.ts', 'src/cli/main.ts'),
        /nothing imports src\/cli/,
      ],
      [
        arrow('src/baremetal/api/x.ts', '../conductor/y.ts', 'src/baremetal/conductor/y.ts'),
        /the api tier of src\/baremetal never imports its conductor tier/,
      ],
      [
        arrow('src/baremetal/conductor/x.ts', '../api/y.ts', 'src/baremetal/api/y.ts'),
        /the conductor tier of src\/baremetal never imports its api tier/,
      ],
      [
        arrow('src/baremetal/drivers/x.ts', '../api/y.ts', 'src/baremetal/api/y.ts'),
        /src\/baremetal\/drivers is shared by both tiers and may not import the api tier/,
      ],
      [arrow('src/rpc/x.ts', 'pg'), /only src\/db and the services talk to the database/],
      [arrow('src/extra/x.ts', 'node:fs'), /src\/extra is not one of docs\/design\.md's layers/],
    ];
    for (const [bad, message] of cases) assert.match(violation(bad) ?? '(allowed)', message);
  });

  test('arrows down the layers, inside a folder and to pure computation pass', () => {
    const fine = [
      arrow('src/cli/main.ts', '../placement/service.ts', 'src/placement/service.ts'),
      arrow('src/service/x.ts', '../rpc/index.ts', 'src/rpc/index.ts'),
      arrow('src/db/x.ts', '../rpc/index.ts', 'src/rpc/index.ts'),
      arrow('src/releases/x.ts', '../objects/version.ts', 'src/objects/version.ts'),
      arrow('src/objects/x.ts', 'node:crypto'),
      arrow('src/placement/x.ts', 'kysely'),
      arrow('src/rpc/x.ts', './y.ts', 'src/rpc/y.ts'),
      arrow('src/baremetal/api/x.ts', '../common/y.ts', 'src/baremetal/common/y.ts'),
      arrow('src/baremetal/service.ts', './conductor/y.ts', 'src/baremetal/conductor/y.ts'),
    ];
    for (const ok of fine) assert.equal(violation(ok), undefined, where(ok));
  });

  test('the reader finds every form of import and export-from, and nothing in comments', () => {
    const source = [
      '/**',
      " * import { nope } from 'in-a-comment';",
      ' */',
      "import './side-effect.ts';",
      "import type { A } from './a.ts';",
      'import {',
      '  b,',
      '  c,',
      "} from './bc.ts';",
      "export { d } from './d.ts';",
      "export * from './e.ts';",
      'export const f = 1;',
      'export function g() {',
      "  return import('./h.ts');",
      '}',
    ].join('\n');
    assert.deepEqual(readImports(source), [
      { specifier: './side-effect.ts', line: 4 },
      { specifier: './a.ts', line: 5 },
      { specifier: './bc.ts', line: 6 },
      { specifier: './d.ts', line: 10 },
      { specifier: './e.ts', line: 11 },
      { specifier: './h.ts', line: 14 },
    ]);
  });
});
