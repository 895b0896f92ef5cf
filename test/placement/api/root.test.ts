import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachPlacementBackend } from '../support/placement-api.ts';

forEachPlacementBackend('placement GET / and the error format', (ctx) => {
  it('serves the version document without a token, at the default version 1.0', async () => {
    const response = await ctx.api().get('/', { token: null });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/json');
    assert.equal(response.headers['openstack-api-version'], 'placement 1.0');
    assert.equal(response.headers.vary, 'openstack-api-version');
    assert.match(String(response.headers['x-openstack-request-id']), /^req-[0-9a-f-]{36}$/);
    assert.equal(
      response.headers['openstack-request-id'],
      response.headers['x-openstack-request-id'],
    );
    assert.deepEqual(response.body, {
      versions: [
        {
          id: 'v1.0',
          max_version: '1.39',
          min_version: '1.0',
          status: 'CURRENT',
          links: [{ rel: 'self', href: '' }],
        },
      ],
    });
    assert.equal(response.headers['last-modified'], undefined);
  });

  it('answers latest as 1.39 with cache headers (1.15+)', async () => {
    const response = await ctx.api().get('/', { token: null, version: 'latest' });
    assert.equal(response.headers['openstack-api-version'], 'placement 1.39');
    assert.equal(response.headers['cache-control'], 'no-cache');
    assert.ok(!Number.isNaN(Date.parse(String(response.headers['last-modified']))));
  });

  it('406 with the range for a version out of range; 400 for a malformed one', async () => {
    const high = await ctx.api().get('/', { token: null, version: '1.40' });
    assert.equal(high.status, 406);
    assert.equal(high.body.errors[0].max_version, '1.39');
    assert.equal(high.body.errors[0].min_version, '1.0');
    const bad = await ctx.api().get('/', { token: null, version: 'one.two' });
    assert.equal(bad.status, 400);
  });

  it('the version document ignores Accept, as the real one does', async () => {
    const response = await ctx.api().get('/', { token: null, headers: { accept: 'text/plain' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/json');
  });

  it('404 for an unknown URL, with code from 1.23, the request id, and no Vary', async () => {
    const old = await ctx.api().get('/nothing-here', { version: '1.22' });
    assert.equal(old.status, 404);
    assert.equal(old.body.errors[0].code, undefined);
    const response = await ctx.api().get('/nothing-here', { version: '1.23' });
    assert.equal(response.status, 404);
    assert.equal(response.headers['openstack-api-version'], 'placement 1.23');
    assert.equal(response.headers.vary, undefined);
    const [error] = response.body.errors;
    assert.equal(error.code, 'placement.undefined_code');
    assert.equal(error.request_id, response.headers['x-openstack-request-id']);
    assert.equal(error.detail, 'The resource could not be found.\n\n   ');
  });

  it('a path parameter never matches an empty segment', async () => {
    for (const path of ['/resource_providers/', '/traits/', '/resource_classes/']) {
      const response = await ctx.api().get(path, { version: '1.39' });
      assert.equal(response.status, 404, path);
      assert.equal(response.body.errors[0].detail, 'The resource could not be found.\n\n   ');
      assert.equal(response.headers.vary, undefined);
    }
  });

  it('405 with Allow and the method named, Vary kept', async () => {
    const response = await ctx.api().request('PATCH', '/', undefined, { version: '1.23' });
    assert.equal(response.status, 405);
    assert.equal(response.headers.allow, 'GET');
    assert.equal(response.headers.vary, 'openstack-api-version');
    assert.equal(
      response.body.errors[0].detail,
      'The method PATCH is not allowed for this resource. \n\n The method specified is not allowed for this resource.',
    );
  });

  it('HEAD is not a route: 405 with an empty HTML-typed answer', async () => {
    const response = await ctx.api().request('HEAD', '/resource_providers');
    assert.equal(response.status, 405);
    assert.equal(response.headers.allow, 'GET, POST');
    assert.equal(response.headers['content-type'], 'text/html; charset=UTF-8');
    assert.equal(response.text, '');
  });
});
