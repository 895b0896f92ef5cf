/**
 * What a conductor process loads at start: not the API's routes. The bare metal composition
 * root (src/baremetal/service.ts) starts both tiers, and a static import of the API server
 * there made every conductor load and compile its 79 modules (and fastify) at each start, CPU
 * taken from the other processes of a small machine during a rolling restart
 * (docs/rehearsal.md, "At 500 requests/s").
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { modulesLoadedFrom, staticRelativeImports } from './support/loaded-modules.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('the modules a conductor loads at start', () => {
  test('leave out the API server and its routes', () => {
    const loaded = modulesLoadedFrom(ROOT, 'src/cli/baremetal-conductor-command.ts');
    assert.ok(loaded.size > 100, `only ${loaded.size} modules reached`);
    assert.ok(loaded.has('src/baremetal/conductor/conductor-process.ts'));
    const api = [...loaded].filter((file) => file.startsWith('src/baremetal/api/'));
    assert.ok(!api.includes('src/baremetal/api/server.ts'), api.join(', '));
    assert.ok(api.length <= 6, `the conductor loads ${api.length} API modules: ${api.join(', ')}`);
  });

  test('static imports are read, type imports and import() are not', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      'import {',
      '  c,',
      '  type C,',
      "} from './c.ts';",
      "export { d } from './d.ts';",
      "export type { E } from './e.ts';",
      "const f = await import('./f.ts');",
      "import './g.ts';",
      "import { h } from 'node:fs';",
    ].join('\n');
    assert.deepEqual(staticRelativeImports(text), ['./a.ts', './c.ts', './d.ts', './g.ts']);
  });
});
