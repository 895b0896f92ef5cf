/**
 * `baton openapi`: the OpenAPI documents per microversion. docs/openapi/ holds them as
 * `npm run openapi` writes them; this test regenerates each in memory and fails when a
 * committed one differs, is missing, or is left over (CI runs it).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.ts';
import { OPENAPI_SERVICES, openApiServiceOf } from '../../src/cli/openapi-command.ts';
import { openApiText } from '../../src/microversion/index.ts';
import { PLACEMENT_VERSIONS } from '../../src/placement/api/versions.ts';

const DOCS = join(import.meta.dirname, '../../docs/openapi');
const REFRESH = 'run `npm run openapi` to refresh docs/openapi/';

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const status = await runCli(args, {
    out: (line) => (out += `${line}\n`),
    err: (text) => (err += text),
  });
  return { status, out, err };
}

describe('baton openapi', () => {
  test('documents both services', () => {
    assert.deepEqual([...OPENAPI_SERVICES].sort(), ['baremetal', 'placement']);
  });

  for (const name of OPENAPI_SERVICES) {
    test(`${name}: docs/openapi/${name}/ holds one document per microversion, as generated`, async () => {
      const service = await openApiServiceOf(name);
      const committed = readdirSync(join(DOCS, name)).sort();
      const expected = service.versions.map((version) => `${version}.json`).sort();
      assert.deepEqual(committed, expected, `files differ: ${REFRESH}`);
      for (const version of service.versions) {
        const text = readFileSync(join(DOCS, name, `${version}.json`), 'utf8');
        assert.ok(
          text === openApiText(service, version),
          `docs/openapi/${name}/${version}.json is stale: ${REFRESH}`,
        );
      }
    });
  }

  test('prints the highest version by default, or the one asked for', async () => {
    const latest = await cli(['openapi', '--service', 'placement']);
    assert.equal(latest.status, 0);
    assert.equal(JSON.parse(latest.out).info.version, '1.39');
    const one = await cli(['openapi', '--service', 'baremetal', '--microversion', '1.37']);
    assert.equal(one.status, 0);
    assert.equal(JSON.parse(one.out).info.version, '1.37');
  });

  test('--out writes the files the docs hold', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-openapi-'));
    try {
      const run = await cli([
        'openapi',
        '--service',
        'baremetal',
        '--microversion',
        '1.82',
        '--out',
        dir,
      ]);
      assert.equal(run.status, 0);
      assert.match(run.out, /wrote 1 OpenAPI document/);
      assert.deepEqual(readdirSync(dir), ['1.82.json']);
      assert.equal(
        readFileSync(join(dir, '1.82.json'), 'utf8'),
        readFileSync(join(DOCS, 'baremetal', '1.82.json'), 'utf8'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('--out without --microversion writes every version and removes stale ones only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-openapi-'));
    try {
      writeFileSync(join(dir, '1.99.json'), '{}');
      writeFileSync(join(dir, 'notes.txt'), 'kept');
      const run = await cli(['openapi', '--service', 'placement', '--out', dir]);
      assert.equal(run.status, 0);
      const files = readdirSync(dir);
      assert.equal(files.length, PLACEMENT_VERSIONS.length + 1);
      assert.ok(files.includes('notes.txt') && !files.includes('1.99.json'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an unknown microversion or service is a usage error on one line', async () => {
    const version = await cli(['openapi', '--service', 'placement', '--microversion', '1.40']);
    assert.equal(version.status, 64);
    assert.equal(
      version.err,
      'baton: error: placement has no microversion 1.40 (it serves 1.0 to 1.39)\n',
    );
    const service = await cli(['openapi', '--service', 'nova']);
    assert.equal(service.status, 64);
    assert.match(service.err, /^baton: error: .*nova.*\n$/);
  });
});
