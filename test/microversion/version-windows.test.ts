import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  CompiledWindows,
  microversionPlugin,
  parseVersion,
  VersionNegotiator,
  type VersionWindow,
  VersionWindowsError,
  validateWindows,
  versionRange,
  type WindowProblem,
  windowedHandler,
} from '../../src/microversion/index.ts';
import { PLACEMENT_VERSIONS, placementConfig } from './fixtures/services.ts';

const RANGE = versionRange(PLACEMENT_VERSIONS);

function rejects(windows: VersionWindow<string>[], problem: WindowProblem, index: number): void {
  assert.throws(
    () => validateWindows(windows, RANGE),
    (error: unknown) =>
      error instanceof VersionWindowsError && error.problem === problem && error.index === index,
  );
}

describe('version windows', () => {
  test('contiguous windows are accepted, the last one may stay open', () => {
    validateWindows(
      [
        { min: '1.0', max: '1.7', handler: 'a' },
        { min: '1.8', max: '1.27', handler: 'b' },
        { min: '1.28', handler: 'c' },
      ],
      RANGE,
    );
    validateWindows([{ min: '1.10', handler: 'only' }], RANGE);
  });

  test('overlapping windows are rejected', () => {
    rejects(
      [
        { min: '1.0', max: '1.8', handler: 'a' },
        { min: '1.8', handler: 'b' },
      ],
      'overlap',
      1,
    );
    rejects(
      [
        { min: '1.5', max: '1.9', handler: 'a' },
        { min: '1.2', handler: 'b' },
      ],
      'overlap',
      1,
    );
  });

  test('gapped windows are rejected (1.10 does not follow 1.8)', () => {
    rejects(
      [
        { min: '1.0', max: '1.8', handler: 'a' },
        { min: '1.10', handler: 'b' },
      ],
      'gap',
      1,
    );
  });

  test('inverted, open-in-the-middle, unparsable, empty and out-of-range windows are rejected', () => {
    rejects([{ min: '1.9', max: '1.2', handler: 'a' }], 'inverted', 0);
    rejects(
      [
        { min: '1.0', handler: 'a' },
        { min: '1.8', handler: 'b' },
      ],
      'open-not-last',
      0,
    );
    rejects([{ min: '1.x', handler: 'a' }], 'bad-version', 0);
    rejects([], 'empty', 0);
    rejects([{ min: '1.30', max: '1.40', handler: 'a' }], 'outside-range', 0);
  });

  test('a version gets exactly the handler whose window contains it', () => {
    const windows = new CompiledWindows([
      { min: '1.2', max: '1.7', handler: 'old' },
      { min: '1.8', max: '1.30', handler: 'new' },
    ]);
    const at = (text: string) => windows.select(parseVersion(text));
    assert.equal(at('1.1'), undefined);
    assert.equal(at('1.2'), 'old');
    assert.equal(at('1.7'), 'old');
    assert.equal(at('1.8'), 'new');
    assert.equal(at('1.30'), 'new');
    assert.equal(at('1.31'), undefined);
  });
});

async function windowedApp(): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(microversionPlugin, {
    negotiator: new VersionNegotiator(placementConfig()),
  });
  app.get(
    '/widgets',
    windowedHandler(
      [
        { min: '1.2', max: '1.7', handler: async () => ({ shape: 'list' }) },
        { min: '1.8', max: '1.30', handler: async () => ({ shape: 'dict' }) },
      ],
      RANGE,
    ),
  );
  return app;
}

describe('version windows on a Fastify route', () => {
  test('dispatches by version, 404 in the service format outside every window', async (t) => {
    const app = await windowedApp();
    t.after(() => app.close());
    const get = (version: string) =>
      app.inject({
        method: 'GET',
        url: '/widgets',
        headers: { 'openstack-api-version': `placement ${version}` },
      });
    assert.deepEqual((await get('1.2')).json(), { shape: 'list' });
    assert.deepEqual((await get('1.7')).json(), { shape: 'list' });
    assert.deepEqual((await get('1.8')).json(), { shape: 'dict' });

    const below = await get('1.1');
    assert.equal(below.statusCode, 404);
    const error = below.json().errors[0];
    assert.deepEqual([error.status, error.title, error.code], [404, 'Not Found', undefined]);
    assert.equal(below.headers['openstack-api-version'], 'placement 1.1');

    // Past 1.23 Placement adds an error code; the formatter knows the version the 404 was at.
    const above = await get('1.31');
    assert.equal(above.statusCode, 404);
    assert.equal(above.json().errors[0].code, 'placement.undefined_code');
    assert.equal((await get('latest')).statusCode, 404);
  });

  test('a route with bad windows fails when declared, not when called', () => {
    assert.throws(
      () =>
        windowedHandler([
          { min: '1.0', max: '1.5', handler: async () => 'a' },
          { min: '1.5', handler: async () => 'b' },
        ]),
      VersionWindowsError,
    );
  });
});
