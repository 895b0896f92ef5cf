/**
 * The envelope every answer shares, pinned to what the real Placement 8.0.0 answers
 * (docs/conformance.md): version negotiation, noauth2's 401, errors rendered for each Accept,
 * content types, and which errors carry Vary.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildPlacementApp } from '../../../src/placement/api/app.ts';
import { defaultPlacementConfig } from '../../../src/placement/config.ts';
import { createPolicyEnforcer } from '../../../src/placement/policy/index.ts';
import { ResourceClassCache } from '../../../src/placement/store/resource-class-cache.ts';
import { forEachPlacementBackend } from '../support/placement-api.ts';

const BAD_REQUEST =
  'The server could not comply with the request since it is either malformed or otherwise incorrect.';
const UNAUTHORIZED =
  'This server could not verify that you are authorized to access the document you requested. Either you supplied the wrong credentials (e.g., bad password), or your browser does not understand how to supply the credentials required.';

forEachPlacementBackend('placement envelope', (ctx) => {
  const list = (headers: Record<string, string>, token: string | null = 'admin') =>
    ctx.api().get('/resource_providers', { headers, token });

  it('reads the version header as Python does: leading zeros, signs and underscores', async () => {
    const cases: [string, string][] = [
      ['placement 01.05', 'placement 1.5'],
      ['placement +1.5', 'placement 1.5'],
      ['placement 1.1_0', 'placement 1.10'],
      ['placement 1. 5', 'placement 1.5'],
      ['PLACEMENT 1.20', 'placement 1.20'],
      ['compute 2.1, placement 1.20', 'placement 1.20'],
      ['placement 1.40, placement 1.20', 'placement 1.20'],
      ['placement', 'placement 1.0'],
      ['compute 2.1', 'placement 1.0'],
    ];
    for (const [header, answered] of cases) {
      const response = await list({ 'openstack-api-version': header });
      assert.equal(response.status, 200, header);
      assert.equal(response.headers['openstack-api-version'], answered, header);
    }
  });

  it('refuses a malformed version with Python int() words, and no version headers', async () => {
    const cases: [string, string][] = [
      [
        'garbage',
        "invalid version string: garbage; invalid literal for int() with base 10: 'garbage'",
      ],
      ['1.2.3', "invalid version string: 1.2.3; invalid literal for int() with base 10: '2.3'"],
      [
        '1',
        "invalid version string: 1; Version.__new__() missing 1 required positional argument: 'minor'",
      ],
      ['1.', "invalid version string: 1.; invalid literal for int() with base 10: ''"],
      [
        'LATEST',
        "invalid version string: LATEST; invalid literal for int() with base 10: 'LATEST'",
      ],
      ["a'b.c", `invalid version string: a'b.c; invalid literal for int() with base 10: "a'b"`],
    ];
    for (const [version, words] of cases) {
      const response = await list({ 'openstack-api-version': `placement ${version}` });
      assert.equal(response.status, 400, version);
      assert.equal(response.headers['openstack-api-version'], undefined);
      assert.equal(response.headers.vary, undefined);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.deepEqual(Object.keys(response.body.errors[0]), [
        'status',
        'title',
        'detail',
        'request_id',
      ]);
      assert.equal(
        response.body.errors[0].detail,
        `${BAD_REQUEST}\n\n Invalid microversion: ${words}  `,
      );
    }
  });

  it('406 for a version outside the list, quoting the text as sent, with the range', async () => {
    for (const version of ['1.40', '-1.5', '1_0.5', '0.9']) {
      const response = await list({ 'openstack-api-version': `placement ${version}` });
      assert.equal(response.status, 406, version);
      assert.equal(response.headers.vary, undefined);
      assert.deepEqual(response.body.errors[0], {
        status: 406,
        title: 'Not Acceptable',
        detail: `The resource could not be generated that was acceptable to your browser (content of type application/json. \n\n Invalid microversion: Unacceptable version header: ${version}`,
        request_id: response.headers['x-openstack-request-id'],
        max_version: '1.39',
        min_version: '1.0',
      });
    }
  });

  it("401 without a token: WebOb's own JSON, no version headers, before version checks", async () => {
    const response = await list({ 'openstack-api-version': 'placement garbage' }, null);
    assert.equal(response.status, 401);
    assert.equal(response.headers['openstack-api-version'], undefined);
    assert.equal(response.headers.vary, undefined);
    assert.match(String(response.headers['x-openstack-request-id']), /^req-/);
    assert.deepEqual(response.body, {
      message: `${UNAUTHORIZED}<br /><br />\n\n\n`,
      code: '401 Unauthorized',
      title: 'Unauthorized',
    });
    const plain = await list({ accept: 'text/plain' }, null);
    assert.equal(plain.headers['content-type'], 'text/plain; charset=UTF-8');
    assert.equal(plain.text, `401 Unauthorized\n\n${UNAUTHORIZED}\n\n   `);
  });

  it('renders errors as plain text or HTML when the client does not take JSON', async () => {
    const query = '/resource_providers/aa000000-0000-4000-8000-000000000099';
    const del = (accept: string) => ctx.api().delete(query, { headers: { accept } });
    const plain = await del('text/plain');
    assert.equal(plain.status, 404);
    assert.equal(plain.headers['content-type'], 'text/plain; charset=UTF-8');
    assert.equal(
      plain.text,
      '404 Not Found\n\nThe resource could not be found.\n\n No resource provider with uuid aa000000-0000-4000-8000-000000000099 found for delete  ',
    );
    for (const accept of ['text/html', '*/*;q=0.5', 'garbage', 'text/html, application/json']) {
      const html = await del(accept);
      assert.equal(html.headers['content-type'], 'text/html; charset=UTF-8', accept);
      assert.equal(
        html.text,
        '<html>\n <head>\n  <title>404 Not Found</title>\n </head>\n <body>\n  <h1>404 Not Found</h1>\n  The resource could not be found.<br /><br />\nNo resource provider with uuid aa000000-0000-4000-8000-000000000099 found for delete\n\n\n </body>\n</html>',
      );
    }
    for (const accept of ['application/*', '*/*', 'text/html;q=0.5, application/json']) {
      const json = await del(accept);
      assert.equal(json.headers['content-type'], 'application/json', accept);
      assert.equal(json.body.errors[0].status, 404);
    }
    const xml = await del('application/xml');
    assert.equal(xml.headers['content-type'], 'text/plain; charset=UTF-8');
  });

  it('406 from a JSON-only handler quotes the Accept it was given', async () => {
    const response = await list({ accept: 'application/xml, image/*;q=0.1' });
    assert.equal(response.status, 406);
    assert.equal(
      response.text,
      '406 Not Acceptable\n\nThe resource could not be generated that was acceptable to your browser (content of type application/xml, image/*;q=0.1. \n\n Only application/json is provided',
    );
    // An invalid Accept header is no constraint at all.
    assert.equal((await list({ accept: 'garbage' })).status, 200);
  });

  it('415 names the media type exactly as sent (no case folding), None when absent', async () => {
    const post = (contentType: string | undefined, body = '{"name": "x"}') =>
      ctx.api().request('POST', '/resource_providers', body, {
        version: '1.39',
        headers: contentType === undefined ? {} : { 'content-type': contentType },
      });
    const upper = await post('APPLICATION/JSON');
    assert.equal(upper.status, 415);
    assert.equal(
      upper.body.errors[0].detail,
      'The request media type APPLICATION/JSON is not supported by this server. \n\n The media type APPLICATION/JSON is not supported, use application/json',
    );
    const plain = await post('text/plain; charset=utf-8');
    assert.equal(
      plain.body.errors[0].detail,
      'The request media type text/plain; charset=utf-8 is not supported by this server. \n\n The media type text/plain is not supported, use application/json',
    );
    const none = await ctx.api().request('POST', '/resource_providers', undefined, {
      version: '1.39',
    });
    assert.equal(none.status, 415);
    assert.match(none.body.errors[0].detail, /^The request media type None is not supported/);
    const charset = await post('application/json; charset=utf-8', '{"name": "charset"}');
    assert.equal(charset.status, 200);
  });

  it('a body without a content type is a 400 raised before routing (no Vary)', async () => {
    const response = await ctx.api().request('POST', '/nothing', undefined, {
      version: '1.39',
      headers: { 'content-length': '2' },
    });
    assert.equal(response.status, 400);
    assert.equal(response.headers.vary, undefined);
    assert.equal(response.headers['openstack-api-version'], 'placement 1.39');
    assert.equal(
      response.body.errors[0].detail,
      `${BAD_REQUEST}\n\n content-type header required when content-length > 0  `,
    );
  });

  it('a policy refusal carries the version header but not Vary', async () => {
    const response = await ctx.api().get('/resource_providers', { token: 'demo', version: '1.23' });
    assert.equal(response.status, 403);
    assert.equal(response.headers['openstack-api-version'], 'placement 1.23');
    assert.equal(response.headers.vary, undefined);
    assert.equal(
      response.body.errors[0].detail,
      'Access was denied to this resource.\n\n Policy does not allow placement:resource_providers:list to be performed.  ',
    );
  });

  it('a failed lookup raised past the handler has no Vary; one the handler words has it', async () => {
    const path = '/resource_providers/aa000000-0000-4000-8000-000000000098';
    const shown = await ctx.api().get(path, { version: '1.39' });
    assert.equal(shown.status, 404);
    assert.equal(shown.headers.vary, undefined);
    const updated = await ctx.api().put(path, { name: 'x' }, { version: '1.39' });
    assert.equal(updated.status, 404);
    assert.equal(updated.headers.vary, undefined);
    const deleted = await ctx.api().delete(path, { version: '1.39' });
    assert.equal(deleted.status, 404);
    assert.equal(deleted.headers.vary, 'openstack-api-version');
  });

  it('Vary follows where each real handler lets a failed lookup through', async () => {
    const rp = '/resource_providers/aa000000-0000-4000-8000-000000000097';
    const cases: [string, 'GET' | 'PUT' | 'POST' | 'DELETE', string, unknown, boolean][] = [
      ['inventories listed', 'GET', `${rp}/inventories`, undefined, true],
      [
        'inventory created',
        'POST',
        `${rp}/inventories`,
        { resource_class: 'VCPU', total: 1 },
        false,
      ],
      [
        'inventories replaced',
        'PUT',
        `${rp}/inventories`,
        { resource_provider_generation: 0, inventories: {} },
        false,
      ],
      ['inventory deleted', 'DELETE', `${rp}/inventories/VCPU`, undefined, false],
      ['aggregates listed', 'GET', `${rp}/aggregates`, undefined, false],
      ['traits listed', 'GET', `${rp}/traits`, undefined, true],
      ['traits set', 'PUT', `${rp}/traits`, { resource_provider_generation: 0, traits: [] }, false],
      ['usages listed', 'GET', `${rp}/usages`, undefined, true],
      ['class shown', 'GET', '/resource_classes/CUSTOM_NOPE', undefined, false],
      ['trait shown', 'GET', '/traits/CUSTOM_NOPE', undefined, true],
    ];
    for (const [what, method, path, body, varies] of cases) {
      const response = await ctx.api().request(method, path, body, { version: '1.39' });
      assert.equal(response.status, 404, what);
      assert.equal(response.headers.vary, varies ? 'openstack-api-version' : undefined, what);
    }
  });

  it('routes on the path as WSGI decodes it: %2F separates, UTF-8 arrives as Latin-1', async () => {
    const rp = 'aa000000-0000-4000-8000-000000000096';
    const inventories = await ctx.api().get(`/resource_providers/${rp}%2Finventories`);
    assert.equal(
      inventories.body.errors[0].detail,
      `The resource could not be found.\n\n No resource provider with uuid ${rp} found : No resource provider with uuid ${rp} found  `,
    );
    const trait = await ctx.api().get('/traits/CUSTOM_%E2%98%83', { version: '1.39' });
    assert.equal(
      trait.body.errors[0].detail,
      'The resource could not be found.\n\n No such trait(s): CUSTOM_\u00e2\u0098\u0083.  ',
    );
    const stray = await ctx.api().get('/traits/CUSTOM_%zz', { version: '1.39' });
    assert.equal(stray.status, 404);
    assert.match(stray.body.errors[0].detail, /No such trait\(s\): CUSTOM_%zz\./);
  });

  it('a NUL anywhere in the URL is a 400 on every database (PostgreSQL words)', async () => {
    // The real service: 404 for a name, 200 for a filter on MySQL, a 500 on PostgreSQL for a
    // value it compares; Baton answers PostgreSQL's sentence as a 400 on all (docs/security.md).
    for (const path of [
      '/traits/CUSTOM_%00',
      '/resource_classes/VCPU%00',
      '/resource_providers?name=a%00',
    ]) {
      const answer = await ctx.api().get(path, { version: '1.39' });
      assert.equal(answer.status, 400, path);
      assert.equal(
        answer.body.errors[0].detail,
        `${BAD_REQUEST}\n\n A string literal cannot contain NUL (0x00) characters.  `,
      );
    }
  });

  it("Allow lists the methods in the real service's order", async () => {
    const cases: [string, string][] = [
      ['/resource_providers/aa000000-0000-4000-8000-000000000095', 'GET, DELETE, PUT'],
      [
        '/resource_providers/aa000000-0000-4000-8000-000000000095/inventories',
        'GET, POST, PUT, DELETE',
      ],
      ['/resource_classes/CUSTOM_X', 'GET, PUT, DELETE'],
      ['/traits', 'GET'],
    ];
    for (const [path, allow] of cases) {
      const response = await ctx.api().request('PATCH', path);
      assert.equal(response.status, 405, path);
      assert.equal(response.headers.allow, allow, path);
    }
  });

  it('reads bodies past 1 MiB (within max_request_body_size), echoing an excerpt', async () => {
    const name = 'n'.repeat(2 * 1024 * 1024);
    const response = await ctx.api().post('/resource_providers', { name }, { version: '1.39' });
    assert.equal(response.status, 400);
    assert.match(
      response.body.errors[0].detail,
      /JSON does not validate: 'n{256}\.\.\.' is too long/,
    );
  });
});

describe('placement envelope: an unexpected failure', () => {
  let app: FastifyInstance;
  before(async () => {
    // A database handle with nothing behind it: every query throws.
    const config = defaultPlacementConfig('sqlite::memory:');
    app = await buildPlacementApp({
      services: {
        db: {} as never,
        config,
        policy: await createPolicyEnforcer(config),
        resourceClasses: new ResourceClassCache(),
      },
    });
  });
  after(() => app.close());

  it('is a 500 without version headers, its code shown from 1.23, no stack', async () => {
    for (const [version, code] of [
      ['1.22', undefined],
      ['1.23', 'placement.undefined_code'],
    ] as const) {
      const response = await app.inject({
        method: 'GET',
        url: '/resource_providers',
        headers: { 'x-auth-token': 'admin', 'openstack-api-version': `placement ${version}` },
      });
      assert.equal(response.statusCode, 500);
      assert.equal(response.headers['openstack-api-version'], undefined);
      assert.equal(response.headers.vary, undefined);
      const [error] = JSON.parse(response.body).errors;
      assert.equal(error.code, code);
      assert.equal(
        error.detail,
        'The server has either erred or is incapable of performing the requested operation.\n\n An unexpected error occurred; it has been logged with this request id.  ',
      );
    }
  });
});

describe('placement envelope: a release pin', () => {
  let app: FastifyInstance;
  before(async () => {
    const config = defaultPlacementConfig('sqlite::memory:');
    app = await buildPlacementApp({
      services: {
        db: {} as never,
        config,
        policy: await createPolicyEnforcer(config),
        resourceClasses: new ResourceClassCache(),
      },
      pinnedMax: '1.30',
    });
  });
  after(() => app.close());

  const root = (version: string) =>
    app.inject({
      method: 'GET',
      url: '/',
      headers: { 'openstack-api-version': `placement ${version}` },
    });

  it('lowers latest, the version document and the range a 406 reports', async () => {
    const latest = await root('latest');
    assert.equal(latest.headers['openstack-api-version'], 'placement 1.30');
    assert.equal(JSON.parse(latest.body).versions[0].max_version, '1.30');
    const above = await root('1.31');
    assert.equal(above.statusCode, 406);
    const [error] = JSON.parse(above.body).errors;
    assert.equal(error.max_version, '1.30');
    assert.equal(error.min_version, '1.0');
    assert.match(error.detail, /Unacceptable version header: 1\.31$/);
  });
});
