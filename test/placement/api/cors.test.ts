/**
 * CORS as oslo.middleware answers in front of Placement (gabbits/cors.yaml, plus the
 * header rules of oslo_middleware/cors.py with Placement's defaults).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { corsSettingsOf, preflightHeaders } from '../../../src/placement/api/cors.ts';
import { defaultPlacementConfig } from '../../../src/placement/config.ts';
import { forEachPlacementBackend } from '../support/placement-api.ts';

const VALID = 'http://valid.example.com';
const INVALID = 'http://invalid.example.com';

forEachPlacementBackend(
  'CORS on',
  (ctx) => {
    const options = (headers: Record<string, string>, url = '/') =>
      ctx.api().request('OPTIONS', url, undefined, { token: null, headers });

    it('a valid preflight gets 200, empty, with every preflight header', async () => {
      const response = await options({
        origin: VALID,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'openstack-api-version',
      });
      assert.equal(response.status, 200);
      assert.equal(response.text, '');
      assert.equal(response.headers['content-type'], undefined);
      assert.equal(response.headers['access-control-allow-origin'], VALID);
      assert.equal(response.headers['access-control-allow-headers'], 'openstack-api-version');
      assert.equal(response.headers['access-control-allow-methods'], 'GET');
      assert.equal(response.headers['access-control-allow-credentials'], 'true');
      assert.equal(response.headers['access-control-max-age'], '3600');
      assert.equal(response.headers.vary, 'Origin');
      assert.match(String(response.headers['openstack-request-id']), /^req-/);
      assert.equal(response.headers['openstack-api-version'], undefined);
    });

    it('is answered before auth, on any URL', async () => {
      for (const url of ['/resource_providers', '/no/such/thing']) {
        const response = await options(
          { origin: VALID, 'access-control-request-method': 'PUT' },
          url,
        );
        assert.equal(response.status, 200, url);
        assert.equal(response.headers['access-control-allow-origin'], VALID, url);
        assert.equal(response.headers['access-control-allow-headers'], undefined, url);
      }
    });

    it('Placement default allow_headers cover the token and the version headers', async () => {
      const response = await options({
        origin: VALID,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'X-Auth-Token, Content-Type,OpenStack-API-Version',
      });
      assert.equal(
        response.headers['access-control-allow-headers'],
        'X-Auth-Token,Content-Type,OpenStack-API-Version',
      );
    });

    it('a preflight that is not allowed still gets 200, without CORS headers', async () => {
      const refused: Record<string, string>[] = [
        { origin: INVALID, 'access-control-request-method': 'GET' },
        { 'access-control-request-method': 'GET' },
        { origin: VALID },
        { origin: VALID, 'access-control-request-method': 'TRACE' },
        { origin: VALID, 'access-control-request-method': 'get' },
        {
          origin: VALID,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-custom-header',
        },
      ];
      for (const headers of refused) {
        const response = await options(headers);
        assert.equal(response.status, 200, JSON.stringify(headers));
        assert.equal(response.text, '');
        assert.equal(response.headers['access-control-allow-origin'], undefined);
        assert.equal(response.headers.vary, undefined);
      }
    });

    it('an actual request from an allowed origin gets the origin, credentials and exposed headers', async () => {
      const response = await ctx.api().get('/', { token: null, headers: { origin: VALID } });
      assert.equal(response.status, 200);
      assert.equal(response.headers['access-control-allow-origin'], VALID);
      assert.equal(response.headers['access-control-allow-credentials'], 'true');
      assert.equal(
        response.headers['access-control-expose-headers'],
        'X-Auth-Token,X-Openstack-Request-Id,X-Subject-Token,X-Service-Token,OpenStack-API-Version',
      );
      assert.equal(response.headers.vary, 'openstack-api-version,Origin');
      assert.equal(response.headers['access-control-max-age'], undefined);
    });

    it('errors get them too; other origins get none', async () => {
      const unauthenticated = await ctx
        .api()
        .get('/resource_providers', { token: null, headers: { origin: VALID } });
      assert.equal(unauthenticated.status, 401);
      assert.equal(unauthenticated.headers['access-control-allow-origin'], VALID);
      const other = await ctx.api().get('/', { token: null, headers: { origin: INVALID } });
      assert.equal(other.status, 200);
      assert.equal(other.headers['access-control-allow-origin'], undefined);
      assert.equal(other.headers['access-control-expose-headers'], undefined);
    });
  },
  (config) => ({ ...config, corsAllowedOrigins: [VALID, 'https://other.example.com'] }),
);

forEachPlacementBackend('CORS off', (ctx) => {
  it('OPTIONS on a known URL is 405 (after auth), with Allow', async () => {
    const response = await ctx.api().request('OPTIONS', '/', undefined, {
      headers: { origin: VALID, 'access-control-request-method': 'GET' },
    });
    assert.equal(response.status, 405);
    assert.equal(response.headers.allow, 'GET');
    assert.equal(response.headers['access-control-allow-origin'], undefined);
    const withoutToken = await ctx.api().request('OPTIONS', '/resource_providers', undefined, {
      token: null,
    });
    assert.equal(withoutToken.status, 401);
  });

  it('no CORS headers on actual requests', async () => {
    const response = await ctx.api().get('/', { token: null, headers: { origin: VALID } });
    assert.equal(response.status, 200);
    assert.equal(response.headers['access-control-allow-origin'], undefined);
  });
});

describe('CORS settings', () => {
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;
  const base = defaultPlacementConfig('sqlite::memory:');

  it('the * origin answers any origin with *', () => {
    const settings = corsSettingsOf({ ...base, corsAllowedOrigins: ['*'] });
    const headers = preflightHeaders(
      settings,
      request({ origin: 'http://anywhere.example', 'access-control-request-method': 'DELETE' }),
    );
    assert.equal(headers['access-control-allow-origin'], '*');
  });

  it('configured allow_headers, methods, max_age and credentials are honoured', () => {
    const settings = corsSettingsOf({
      ...base,
      corsAllowedOrigins: [VALID],
      corsAllowHeaders: ['X-Custom'],
      corsAllowMethods: ['GET'],
      corsMaxAge: 0,
      corsAllowCredentials: false,
    });
    const ok = preflightHeaders(
      settings,
      request({
        origin: VALID,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-custom',
      }),
    );
    assert.deepEqual(ok, {
      vary: 'Origin',
      'access-control-allow-origin': VALID,
      'access-control-allow-methods': 'GET',
      'access-control-allow-headers': 'x-custom',
    });
    const refused = preflightHeaders(
      settings,
      request({
        origin: VALID,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-auth-token',
      }),
    );
    assert.deepEqual(refused, {});
  });
});
