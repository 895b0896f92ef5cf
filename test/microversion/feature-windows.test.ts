import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import {
  defineFeatures,
  type FeatureWindow,
  FeatureWindows,
  microversionPlugin,
  parseVersion,
  VersionNegotiator,
  VersionWindowsError,
  type WindowProblem,
  windowedHandler,
} from '../../src/microversion/index.ts';
import { PLACEMENT_VERSIONS, placementConfig } from './fixtures/services.ts';

const F = defineFeatures(PLACEMENT_VERSIONS, {
  base: '1.0',
  owners: '1.8',
  dict: '1.12',
  post: '1.13',
  generations: '1.28',
  mappings: '1.34',
});

// An Ironic-like list with a hole: 1.1 to 1.80, then 1.82.
const BAREMETAL_VERSIONS = [...Array.from({ length: 80 }, (_, i) => `1.${i + 1}`), '1.82'];
const B = defineFeatures(BAREMETAL_VERSIONS, {
  base: '1.1',
  selfService: '1.80',
  shards: '1.82',
});

function rejects(windows: FeatureWindow<string>[], problem: WindowProblem, index: number): void {
  assert.throws(
    () => new FeatureWindows('test windows', windows),
    (error: unknown) =>
      error instanceof VersionWindowsError &&
      error.problem === problem &&
      error.index === index &&
      error.message.includes('test windows'),
    problem,
  );
}

describe('feature windows', () => {
  test('windows meeting at a gate are accepted; each version gets its window', () => {
    const windows = new FeatureWindows('PUT body', [
      { since: F.base, until: F.owners, use: 'v1.0' },
      { since: F.owners, until: F.dict, use: 'v1.8' },
      { since: F.dict, use: 'v1.12' },
    ]);
    const pick = (text: string) => windows.select(parseVersion(text));
    assert.equal(pick('1.0'), 'v1.0');
    assert.equal(pick('1.7'), 'v1.0');
    assert.equal(pick('1.8'), 'v1.8');
    assert.equal(pick('1.11'), 'v1.8');
    assert.equal(pick('1.12'), 'v1.12');
    assert.equal(pick('1.39'), 'v1.12');
    assert.equal(windows.since, F.base);
    assert.equal(windows.until, undefined);
  });

  test('below the first gate, and from a closing gate on, nothing is served', () => {
    const windows = new FeatureWindows('POST body', [
      { since: F.post, until: F.generations, use: 'old' },
      { since: F.generations, until: F.mappings, use: 'new' },
    ]);
    assert.equal(windows.select(parseVersion('1.12')), undefined);
    assert.equal(windows.select(parseVersion('1.13')), 'old');
    assert.equal(windows.select(parseVersion('1.33')), 'new');
    assert.equal(windows.select(parseVersion('1.34')), undefined);
    assert.equal(windows.until, F.mappings);
    assert.throws(() => windows.expect(parseVersion('1.12')), /POST body: no window serves 1\.12/);
    assert.equal(windows.expect(parseVersion('1.13')), 'old');
  });

  test('overlapping windows are rejected', () => {
    rejects(
      [
        { since: F.base, until: F.dict, use: 'a' },
        { since: F.owners, use: 'b' },
      ],
      'overlap',
      1,
    );
  });

  test('gapped windows are rejected', () => {
    rejects(
      [
        { since: F.base, until: F.owners, use: 'a' },
        { since: F.dict, use: 'b' },
      ],
      'gap',
      1,
    );
  });

  test('inverted, empty, open-in-the-middle and mixed-API windows are rejected', () => {
    rejects([{ since: F.dict, until: F.owners, use: 'a' }], 'inverted', 0);
    rejects([{ since: F.dict, until: F.dict, use: 'a' }], 'inverted', 0);
    rejects([], 'empty', 0);
    rejects(
      [
        { since: F.base, use: 'a' },
        { since: F.dict, use: 'b' },
      ],
      'open-not-last',
      0,
    );
    rejects(
      [
        { since: F.base, until: F.owners, use: 'a' },
        { since: F.owners, until: B.shards, use: 'b' },
      ],
      'mixed-apis',
      1,
    );
  });

  test('a list with a hole: windows meet at the gate after it, nothing is a gap', () => {
    const windows = new FeatureWindows('node body', [
      { since: B.base, until: B.shards, use: 'without shard' },
      { since: B.shards, use: 'with shard' },
    ]);
    assert.equal(windows.select(parseVersion('1.80')), 'without shard');
    assert.equal(windows.select(parseVersion('1.82')), 'with shard');
    rejects(
      [
        { since: B.base, until: B.selfService, use: 'a' },
        { since: B.shards, use: 'b' },
      ],
      'gap',
      1,
    );
  });

  test('a Fastify route dispatches over feature windows, 404 outside them', async (t) => {
    const app = Fastify();
    t.after(() => app.close());
    await app.register(microversionPlugin, {
      negotiator: new VersionNegotiator(placementConfig()),
    });
    app.get(
      '/widgets',
      windowedHandler(
        new FeatureWindows('GET /widgets', [
          { since: F.owners, until: F.dict, use: async () => ({ shape: 'list' }) },
          { since: F.dict, use: async () => ({ shape: 'dict' }) },
        ]),
      ),
    );
    const get = (version: string) =>
      app.inject({
        method: 'GET',
        url: '/widgets',
        headers: { 'openstack-api-version': `placement ${version}` },
      });
    assert.deepEqual((await get('1.11')).json(), { shape: 'list' });
    assert.deepEqual((await get('1.12')).json(), { shape: 'dict' });
    const below = await get('1.7');
    assert.equal(below.statusCode, 404);
    assert.equal(below.json().errors[0].status, 404);
  });
});
