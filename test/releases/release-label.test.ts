/**
 * A service's release is shown as one kind for every service (issue 22 §6): the year number
 * and the name of the series from 2023.1 on, the name alone before; `baton --version` printed
 * `placement 2026.1` beside `baremetal antelope`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BAREMETAL_SERVICE } from '../../src/baremetal/service.ts';
import { versionLine } from '../../src/cli/build-info.ts';
import { PLACEMENT_SERVICE } from '../../src/placement/service.ts';
import { releaseLabel } from '../../src/releases/index.ts';

test('a release by its name or its number: the number and the name; before 2023.1, the name', () => {
  assert.equal(releaseLabel('antelope'), '2023.1 (antelope)');
  assert.equal(releaseLabel('2023.1'), '2023.1 (antelope)');
  assert.equal(releaseLabel('2026.1'), '2026.1 (gazpacho)');
  assert.equal(releaseLabel('zed'), 'zed');
});

test("--version: both services' releases of one kind", () => {
  const line = versionLine({
    version: '0.1.0',
    releases: {
      placement: PLACEMENT_SERVICE.release,
      baremetal: BAREMETAL_SERVICE.release,
    },
    commit: 'abc1234',
  });
  assert.equal(
    line,
    'baton 0.1.0 (placement 2026.1 (gazpacho); baremetal 2023.1 (antelope); commit abc1234)',
  );
  const kinds = [...line.matchAll(/(placement|baremetal) (\S+ \(\S+\)|\S+);/g)].map((m) =>
    /^\d{4}\.\d+ \([a-z]+\)$/.test(m[2] ?? '') ? 'number (name)' : 'other',
  );
  assert.deepEqual(kinds, ['number (name)', 'number (name)']);
});
