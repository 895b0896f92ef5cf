/**
 * The negotiating client, in the bare metal header style (`X-OpenStack-Ironic-API-Version` with
 * its min/max headers), against the real OpenStack Ironic API 21.4 (Debian's ironic-api, a
 * scratch SQLite database, HTTP basic authentication). Its answers are the ones to read right:
 * a 401 and a 404 for an unknown path without any version header, a version 406 with the
 * min/max headers, a 406 for an `Accept` it cannot serve with no version header at all, a root
 * document without version headers. When the service cannot start, this file fails under
 * CI=true and is skipped with the reason otherwise.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  MicroversionClient,
  VersionCache,
  VersionRejectedError,
} from '../../src/microversion/index.ts';
import {
  IRONIC_AUTH,
  REAL_IRONIC_INSTALL,
  type RealIronic,
  realIronicMissing,
  startRealIronic,
} from './fixtures/real-ironic.ts';
import { buffering, recordingFetch, type SentRequest } from './fixtures/recording-client.ts';
import { IRONIC_HEADERS } from './fixtures/services.ts';

const inCi = process.env.CI === 'true';

async function startReal(): Promise<RealIronic | string> {
  const missing = realIronicMissing();
  if (missing !== undefined) return `the real Ironic API cannot run: ${missing}`;
  let failure: unknown;
  // The port is picked free, then bound by the service: another process may take it between.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startRealIronic();
    } catch (error) {
      failure = error;
    }
  }
  return `the real Ironic API did not start: ${(failure as Error).message} (${REAL_IRONIC_INSTALL})`;
}

describe('negotiating client against the real Ironic API', async () => {
  const started = await startReal();
  if (typeof started === 'string') {
    if (inCi) throw new Error(`${started} (CI=true: the real Ironic API must be tested)`);
    describe(started, { skip: started }, () => {});
    return;
  }
  const real: RealIronic = started;
  after(() => real.stop());

  // What the service says it supports, from its own root document.
  const root = (await (await fetch(`${real.url}/`)).json()) as {
    default_version: { min_version: string; version: string };
  };
  const serverMin = root.default_version.min_version;
  const serverMax = root.default_version.version;

  function setup() {
    const cache = new VersionCache();
    const sent: SentRequest[] = [];
    const client = (supported: { min: string; max: string }, requested?: string) =>
      buffering(
        new MicroversionClient({
          endpoint: real.url,
          serviceType: 'baremetal',
          headers: IRONIC_HEADERS,
          supported,
          requested,
          cache,
          fetch: recordingFetch(sent, IRONIC_HEADERS.legacyName),
        }),
      );
    const seen = () =>
      sent.map((s) => `${s.method} ${new URL(s.url).pathname} ${s.version ?? '-'}`);
    return { cache, client, seen };
  }

  test('a 401 without version headers is handed back; the next request is at the max', async () => {
    const { cache, client, seen } = setup();
    const ironic = client({ min: '1.1', max: serverMax });
    const refused = await ironic.request('/v1/nodes');
    assert.equal(refused.response.status, 401);
    assert.deepEqual([refused.version, refused.microversions], [undefined, undefined]);
    assert.equal(cache.size, 0);
    const served = await ironic.request('/v1/nodes', { headers: IRONIC_AUTH });
    assert.equal(served.response.status, 200);
    assert.deepEqual(
      [served.version, served.serverMin, served.serverMax],
      [serverMax, serverMin, serverMax],
    );
    assert.deepEqual(seen(), [`GET /v1/nodes ${serverMax}`, `GET /v1/nodes ${serverMax}`]);
    // A success states the range (Ironic sends min/max on every versioned answer): learned.
    assert.equal(cache.get(real.url)?.microversions, true);
  });

  test('a 404 for an unknown path, without version headers, is handed back', async () => {
    const { cache, client } = setup();
    const result = await client({ min: '1.1', max: serverMax }, '1.50').request(
      '/v1/no_such_thing',
      {
        headers: IRONIC_AUTH,
      },
    );
    assert.equal(result.response.status, 404);
    assert.deepEqual([result.version, result.microversions], [undefined, undefined]);
    assert.equal(cache.size, 0);
  });

  test('use case 7A: the 406 states the range in headers; negotiated down and cached', async () => {
    const { cache, client, seen } = setup();
    const result = await client({ min: '1.40', max: '1.99' }).request('/v1/nodes', {
      headers: IRONIC_AUTH,
    });
    assert.equal(result.response.status, 200);
    assert.deepEqual([result.version, result.negotiated], [serverMax, true]);
    assert.deepEqual(seen(), ['GET /v1/nodes 1.99', `GET /v1/nodes ${serverMax}`]);
    assert.equal(cache.get(real.url)?.microversions, true);
  });

  test('use case 7B: a user version above the server is refused with its range', async () => {
    const { cache, client, seen } = setup();
    await assert.rejects(
      client({ min: '1.1', max: '1.99' }, '1.99').request('/v1/nodes', { headers: IRONIC_AUTH }),
      (error: unknown) => {
        assert.ok(error instanceof VersionRejectedError);
        assert.deepEqual(
          [error.serverMin, error.serverMax, error.rangeSource],
          [serverMin, serverMax, 'response'],
        );
        return true;
      },
    );
    assert.deepEqual(seen(), ['GET /v1/nodes 1.99']);
    assert.equal(cache.size, 0);
  });

  test('a 406 for an Accept it cannot serve (no version header): document read, handed back', async () => {
    const { cache, client, seen } = setup();
    const result = await client({ min: '1.1', max: serverMax }, '1.50').request('/v1/nodes', {
      headers: { ...IRONIC_AUTH, accept: 'text/plain' },
    });
    assert.equal(result.response.status, 406);
    assert.match(await result.response.text(), /text\/plain/);
    assert.equal(result.negotiated, false);
    assert.deepEqual(seen(), ['GET /v1/nodes 1.50', 'GET / -']);
    assert.equal(cache.size, 0);
  });

  test('a POST with a user version: the root document first (no version headers, a range)', async () => {
    const { cache, client, seen } = setup();
    const ironic = client({ min: '1.1', max: serverMax }, '1.50');
    const invalid = await ironic.request('/v1/nodes', {
      method: 'POST',
      headers: { ...IRONIC_AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'no-driver' }),
    });
    // Ironic validates before it would need a conductor: a versioned 400, handed back.
    assert.equal(invalid.response.status, 400);
    assert.match(await invalid.response.text(), /'driver' is a required property/);
    assert.deepEqual([invalid.version, invalid.microversions], ['1.50', true]);
    assert.deepEqual(seen(), ['GET / 1.50', 'POST /v1/nodes 1.50']);
    assert.equal(cache.get(real.url)?.microversions, true);
  });

  test('a stale "no microversions" entry heals: 1.0 is refused with the range, then 7A', async () => {
    const { cache, client, seen } = setup();
    cache.set(real.url, { microversions: false });
    const result = await client({ min: '1.0', max: serverMax }).request('/v1/nodes', {
      headers: IRONIC_AUTH,
    });
    assert.deepEqual([result.version, result.negotiated], [serverMax, true]);
    assert.deepEqual(seen(), ['GET /v1/nodes 1.0', `GET /v1/nodes ${serverMax}`]);
    assert.equal(cache.get(real.url)?.microversions, true);
  });
});
