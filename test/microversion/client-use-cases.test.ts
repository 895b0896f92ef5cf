import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  InvalidRequestedVersionError,
  MicroversionClient,
  type MicroversionClientOptions,
  MicroversionsUnsupportedError,
  NoCommonVersionError,
  VersionCache,
  VersionRejectedError,
} from '../../src/microversion/index.ts';
import {
  sentVersions,
  startNewServer,
  startOldServer,
  type TestServer,
} from './fixtures/servers.ts';
import { IRONIC_HEADERS } from './fixtures/services.ts';

// The microversion spec's use cases, each against a real server on 127.0.0.1. "Ironic" here is Baton's own
// plugin with an Ironic-like config (min/max headers); "old Ironic" ignores version headers.

const LEGACY = 'X-OpenStack-Ironic-API-Version';

function ironicClient(
  server: TestServer,
  supported: { min: string; max: string },
  extra: Partial<MicroversionClientOptions> = {},
): MicroversionClient {
  return new MicroversionClient({
    endpoint: server.url,
    serviceType: 'baremetal',
    headers: IRONIC_HEADERS,
    supported,
    cache: new VersionCache(),
    ...extra,
  });
}

async function withServer(
  start: () => Promise<TestServer>,
  body: (server: TestServer) => Promise<void>,
): Promise<void> {
  const server = await start();
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

describe('negotiating client, the microversion spec use cases', () => {
  test('use case 1: old client, old server: no header either way, served as 1.0', async () => {
    await withServer(startOldServer, async (server) => {
      const response = await fetch(`${server.url}/v1/nodes`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get(LEGACY), null);
      assert.deepEqual(await response.json(), { api: 'v1.0' });
      assert.deepEqual(sentVersions(server, LEGACY), [undefined]);
    });
  });

  test('use case 2: old client, new server: no header gets the minimum version', async () => {
    await withServer(
      () => startNewServer('ironic', { min: '1.1', max: '1.12' }),
      async (server) => {
        const response = await fetch(`${server.url}/v1/nodes`);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get(LEGACY), '1.1');
        assert.equal(response.headers.get('X-OpenStack-Ironic-API-Minimum-Version'), '1.1');
        assert.equal(response.headers.get('X-OpenStack-Ironic-API-Maximum-Version'), '1.12');
        assert.deepEqual(await response.json(), { servedAt: '1.1' });
        assert.deepEqual(sentVersions(server, LEGACY), [undefined]);
      },
    );
  });

  test('use case 3A: new client, old server, no user version: proceeds at 1.0 and remembers', async () => {
    await withServer(startOldServer, async (server) => {
      const cache = new VersionCache();
      const client = ironicClient(server, { min: '1.0', max: '1.15' }, { cache });
      const first = await client.request('/v1/nodes');
      assert.equal(first.response.status, 200);
      assert.deepEqual(await first.response.json(), { api: 'v1.0' });
      assert.equal(first.version, '1.0');
      assert.equal(first.microversions, false);
      assert.equal(first.sent, '1.15');
      const second = await client.request('/v1/nodes');
      assert.equal(second.version, '1.0');
      // Another client sharing the cache starts at 1.0 straight away.
      await ironicClient(server, { min: '1.0', max: '1.15' }, { cache }).request('/v1/nodes');
      assert.deepEqual(sentVersions(server, LEGACY), ['1.15', '1.0', '1.0']);
      assert.deepEqual(cache.get(server.url), { microversions: false });
    });
  });

  test('use case 3A: a client that cannot speak 1.0 reports it instead of proceeding', async () => {
    await withServer(startOldServer, async (server) => {
      const client = ironicClient(server, { min: '1.8', max: '1.15' });
      await assert.rejects(client.request('/v1/nodes'), (error: unknown) => {
        assert.ok(error instanceof NoCommonVersionError);
        assert.equal(error.serverMin, '1.0');
        assert.equal(error.serverMax, '1.0');
        assert.equal(error.clientMin, '1.8');
        return true;
      });
      assert.equal(server.requests.length, 1);
    });
  });

  test('use case 3B: new client, old server, user version: the user is told, nothing ignored', async () => {
    await withServer(startOldServer, async (server) => {
      const client = ironicClient(server, { min: '1.0', max: '1.15' }, { requested: '1.10' });
      await assert.rejects(client.request('/v1/nodes'), (error: unknown) => {
        assert.ok(error instanceof MicroversionsUnsupportedError);
        assert.equal(error.requested, '1.10');
        assert.equal(error.endpoint, server.url);
        assert.equal(error.status, 200);
        assert.match(error.message, /1\.10 cannot be used/);
        assert.match(error.message, /does not support microversions/);
        return true;
      });
      assert.deepEqual(sentVersions(server, LEGACY), ['1.10']);
    });
  });

  test('use case 4: invalid user versions are refused before any request', async () => {
    await withServer(
      () => startNewServer('ironic', { min: '1.1', max: '1.12' }),
      async (server) => {
        for (const requested of ['spam', 'l33t', '1.2.3.4.5', '', '1', '1.', '-1.2']) {
          assert.throws(
            () => ironicClient(server, { min: '1.1', max: '1.12' }, { requested }),
            (error: unknown) => {
              assert.ok(error instanceof InvalidRequestedVersionError, requested);
              assert.equal(error.requested, requested);
              assert.equal(error.reason, 'format');
              assert.match(error.message, /expected "X\.Y"/);
              return true;
            },
          );
        }
        assert.throws(
          () => ironicClient(server, { min: '1.1', max: '1.12' }, { requested: '1.13' }),
          (error: unknown) =>
            error instanceof InvalidRequestedVersionError &&
            error.reason === 'outside-client-range' &&
            error.clientMax === '1.12',
        );
        assert.equal(server.requests.length, 0);
      },
    );
  });

  test('use case 5: server only supports versions newer than the client: reported', async () => {
    await withServer(
      () => startNewServer('ironic', { min: '1.8', max: '1.15' }),
      async (server) => {
        const client = ironicClient(server, { min: '1.1', max: '1.6' });
        await assert.rejects(client.request('/v1/nodes'), (error: unknown) => {
          assert.ok(error instanceof NoCommonVersionError);
          assert.deepEqual(
            [error.requested, error.serverMin, error.serverMax, error.clientMin, error.clientMax],
            ['1.6', '1.8', '1.15', '1.1', '1.6'],
          );
          return true;
        });
        assert.deepEqual(sentVersions(server, LEGACY), ['1.6']);
      },
    );
  });

  test('use case 6: server only supports versions older than the client: reported', async () => {
    await withServer(
      () => startNewServer('ironic', { min: '1.1', max: '1.5' }),
      async (server) => {
        const client = ironicClient(server, { min: '1.10', max: '1.15' });
        await assert.rejects(client.request('/v1/nodes'), (error: unknown) => {
          assert.ok(error instanceof NoCommonVersionError);
          assert.deepEqual(
            [error.requested, error.serverMin, error.serverMax, error.clientMin, error.clientMax],
            ['1.15', '1.1', '1.5', '1.10', '1.15'],
          );
          return true;
        });
        // The spec's literal variant: the client asks for 1.10 (its minimum).
        const asked = ironicClient(server, { min: '1.10', max: '1.15' }, { requested: '1.10' });
        await assert.rejects(asked.request('/v1/nodes'), VersionRejectedError);
        assert.deepEqual(sentVersions(server, LEGACY), ['1.15', '1.10']);
      },
    );
  });

  test('use case 7A: negotiated down to the highest common version, then cached', async () => {
    await withServer(
      () => startNewServer('ironic', { min: '1.1', max: '1.10' }),
      async (server) => {
        const cache = new VersionCache();
        const client = ironicClient(server, { min: '1.8', max: '1.15' }, { cache });
        const first = await client.request('/v1/nodes');
        assert.equal(first.response.status, 200);
        assert.deepEqual(await first.response.json(), { servedAt: '1.10' });
        assert.equal(first.version, '1.10');
        assert.equal(first.negotiated, true);
        assert.deepEqual([first.serverMin, first.serverMax], ['1.1', '1.10']);
        const again = await client.request('/v1/nodes');
        assert.equal(again.negotiated, false);
        const sibling = ironicClient(server, { min: '1.8', max: '1.15' }, { cache });
        assert.equal((await sibling.request('/v1/nodes')).version, '1.10');
        assert.deepEqual(sentVersions(server, LEGACY), ['1.15', '1.10', '1.10', '1.10']);
      },
    );
  });

  test('use case 7A: Placement-style server, range read from the 406 body', async () => {
    await withServer(
      () => startNewServer('placement', { min: '1.0', max: '1.10' }),
      async (server) => {
        const client = new MicroversionClient({
          endpoint: server.url,
          serviceType: 'placement',
          headers: { mode: 'new' },
          supported: { min: '1.8', max: '1.15' },
          cache: new VersionCache(),
        });
        const result = await client.request('/v1/nodes');
        assert.equal(result.version, '1.10');
        assert.equal(result.negotiated, true);
        assert.equal(result.response.headers.get('OpenStack-API-Version'), 'placement 1.10');
        assert.deepEqual(sentVersions(server, 'OpenStack-API-Version'), [
          'placement 1.15',
          'placement 1.10',
        ]);
      },
    );
  });

  test('use case 7B: user version refused by the server: reported, no retry', async () => {
    await withServer(
      () => startNewServer('ironic', { min: '1.1', max: '1.10' }),
      async (server) => {
        const cache = new VersionCache();
        const client = ironicClient(
          server,
          { min: '1.8', max: '1.15' },
          { requested: '1.15', cache },
        );
        await assert.rejects(client.request('/v1/nodes'), (error: unknown) => {
          assert.ok(error instanceof VersionRejectedError);
          assert.deepEqual(
            [error.requested, error.serverMin, error.serverMax, error.clientMin, error.clientMax],
            ['1.15', '1.1', '1.10', '1.8', '1.15'],
          );
          assert.equal(error.userSpecified, true);
          return true;
        });
        assert.deepEqual(sentVersions(server, LEGACY), ['1.15']);
        assert.equal(cache.size, 0);
      },
    );
  });

  test('use case 8: compatible version: one request, answered at that version', async () => {
    await withServer(
      () => startNewServer('ironic', { min: '1.1', max: '1.12' }),
      async (server) => {
        const result = await ironicClient(server, { min: '1.8', max: '1.10' }).request('/v1/nodes');
        assert.equal(result.response.headers.get(LEGACY), '1.10');
        assert.equal(result.version, '1.10');
        assert.equal(result.negotiated, false);
        assert.equal(result.beyondClient, false);
        assert.deepEqual(sentVersions(server, LEGACY), ['1.10']);
      },
    );
  });

  test('use case 9: latest is sent as latest and the server answer is reported', async () => {
    await withServer(
      () => startNewServer('ironic', { min: '1.1', max: '1.12' }),
      async (server) => {
        const client = ironicClient(server, { min: '1.8', max: '1.10' }, { requested: 'latest' });
        const result = await client.request('/v1/nodes');
        assert.deepEqual(
          [result.sent, result.version, result.serverMin, result.serverMax],
          ['latest', '1.12', '1.1', '1.12'],
        );
        assert.deepEqual([result.clientMin, result.clientMax], ['1.8', '1.10']);
        assert.equal(result.beyondClient, true);
        assert.deepEqual(sentVersions(server, LEGACY), ['latest']);
      },
    );
  });

  test('use case 9: latest against an old server reports the base version, no crash', async () => {
    await withServer(startOldServer, async (server) => {
      const client = ironicClient(server, { min: '1.0', max: '1.10' }, { requested: 'latest' });
      const result = await client.request('/v1/nodes');
      assert.equal(result.response.status, 200);
      assert.deepEqual([result.version, result.microversions], ['1.0', false]);
      assert.deepEqual(sentVersions(server, LEGACY), ['latest']);
    });
  });
});
