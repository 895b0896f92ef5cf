/**
 * The OpenAPI builder on a small API of its own: what exists at a version is kept (operations,
 * query parameters, bodies, answers, shared schemas), the rest left out, and every document
 * is valid OpenAPI 3.1.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  compareVersions,
  defineFeatures,
  FeatureWindows,
  OpenApiDocuments,
  type OpenApiService,
  openApiDocument,
  openApiText,
  schemaRef,
  UnknownDocumentVersionError,
} from '../../src/microversion/index.ts';
import { openApiProblems } from '../support/openapi-documents.ts';

const VERSIONS = ['1.0', '1.1', '1.2', '1.3'] as const;
const F = defineFeatures(VERSIONS, { base: '1.0', widgets: '1.1', colour: '1.2', sizes: '1.3' });

const WIDGET_BODY = new FeatureWindows('POST /widgets body', [
  { since: F.widgets, until: F.colour, use: { type: 'object', properties: { name: {} } } },
  { since: F.colour, use: { type: 'object', properties: { name: {}, colour: {} } } },
]);

const SERVICE: OpenApiService = {
  title: 'Widgets',
  description: 'A test API.',
  versions: VERSIONS,
  versionHeader: { name: 'OpenStack-API-Version', example: (v) => `widgets ${v}` },
  responseHeaders: { 'openstack-api-version': 'The version of the answer.' },
  errorSchema: { type: 'object', properties: { error: { type: 'string' } } },
  errorDescription: 'An error.',
  tokenHeader: 'X-Auth-Token',
  schemas: {
    Widget: (v) => ({
      type: 'object',
      properties: compareVersions(v, F.colour) >= 0 ? { name: {}, colour: {} } : { name: {} },
    }),
  },
  operations: [
    {
      method: 'get',
      path: '/',
      tag: 'root',
      summary: 'Root.',
      public: true,
      responses: [{ status: '200', description: 'The root.' }],
    },
    {
      method: 'get',
      path: '/widgets',
      since: F.widgets,
      tag: 'widgets',
      summary: 'List.',
      query: [
        { name: 'limit', description: 'How many.' },
        { name: 'size', since: F.sizes, description: 'Of this size.' },
      ],
      responses: [{ status: '200', description: 'Widgets.', schema: schemaRef('Widget') }],
    },
    {
      method: 'post',
      path: '/widgets',
      since: F.widgets,
      tag: 'widgets',
      summary: 'Create.',
      body: WIDGET_BODY,
      querySchema: {
        type: 'object',
        properties: { dry_run: { type: 'string' } },
        required: ['dry_run'],
        patternProperties: { '^tag[0-9]+$': { type: 'string' } },
      },
      responses: [
        { status: '201', until: F.sizes, description: 'Created.' },
        { status: '200', since: F.sizes, description: 'Created, with the widget.' },
      ],
    },
    {
      method: 'get',
      path: '/widgets/{id}',
      since: F.widgets,
      until: F.sizes,
      tag: 'widgets',
      summary: 'Show (gone in 1.3).',
      pathParameters: { id: 'The widget id.' },
      query: [{ name: 'limit', description: 'How many.' }],
      responses: [{ status: '200', description: 'A widget.' }],
    },
  ],
};

describe('OpenAPI documents per microversion', () => {
  test('every version gives a valid OpenAPI 3.1 document naming its version', async () => {
    for (const version of VERSIONS) {
      const document = openApiDocument(SERVICE, version);
      assert.deepEqual(await openApiProblems(document), [], version);
      assert.equal(document.openapi, '3.1.0');
      assert.equal(document.info.version, version);
      assert.equal(document['x-openstack-microversion'], version);
      assert.equal(document.components.parameters.microversion.name, 'OpenStack-API-Version');
      assert.equal(document.components.parameters.microversion.example, `widgets ${version}`);
    }
  });

  test('an operation exists from its since up to its until', () => {
    assert.deepEqual(Object.keys(openApiDocument(SERVICE, '1.0').paths), ['/']);
    assert.deepEqual(Object.keys(openApiDocument(SERVICE, '1.2').paths), [
      '/',
      '/widgets',
      '/widgets/{id}',
    ]);
    assert.deepEqual(Object.keys(openApiDocument(SERVICE, '1.3').paths), ['/', '/widgets']);
  });

  test('query parameters, bodies and answers follow their gates', () => {
    const names = (version: string) =>
      openApiDocument(SERVICE, version).paths['/widgets'].get.parameters.map(
        (p: { name?: string; $ref?: string }) => p.name ?? p.$ref,
      );
    // `limit` is shared at 1.2 (two operations write it alike), inline at 1.3 (one does).
    assert.deepEqual(names('1.2'), [
      '#/components/parameters/query_limit',
      '#/components/parameters/microversion',
    ]);
    assert.deepEqual(names('1.3'), ['limit', 'size', '#/components/parameters/microversion']);
    const post = (version: string) => openApiDocument(SERVICE, version).paths['/widgets'].post;
    assert.deepEqual(
      Object.keys(post('1.1').requestBody.content['application/json'].schema.properties),
      ['name'],
    );
    assert.deepEqual(
      Object.keys(post('1.2').requestBody.content['application/json'].schema.properties),
      ['name', 'colour'],
    );
    assert.deepEqual(Object.keys(post('1.2').responses), ['201', 'default']);
    assert.deepEqual(Object.keys(post('1.3').responses), ['200', 'default']);
  });

  test('a query schema becomes parameters, its patterns an extension', () => {
    const post = openApiDocument(SERVICE, '1.1').paths['/widgets'].post;
    assert.deepEqual(post.parameters[0], {
      name: 'dry_run',
      in: 'query',
      required: true,
      description: 'As the service validates it at this version (its JSON schema).',
      schema: { type: 'string' },
    });
    assert.deepEqual(
      post['x-pattern-query-parameters'].map((p: { pattern: string; schema: unknown }) => [
        p.pattern,
        p.schema,
      ]),
      [['^tag[0-9]+$', { type: 'string' }]],
    );
  });

  test('shared schemas are written once per version; repeated parameters are shared', () => {
    const at = (version: string) => openApiDocument(SERVICE, version).components;
    assert.deepEqual(Object.keys(at('1.1').schemas.Widget.properties), ['name']);
    assert.deepEqual(Object.keys(at('1.2').schemas.Widget.properties), ['name', 'colour']);
    assert.deepEqual(at('1.2').parameters.query_limit, {
      name: 'limit',
      in: 'query',
      description: 'How many.',
      schema: { type: 'string' },
    });
    assert.equal(at('1.3').parameters.query_limit, undefined, 'used once at 1.3: inline');
  });

  test('public operations need no token; the others the token header', () => {
    const document = openApiDocument(SERVICE, '1.1');
    assert.deepEqual(document.security, [{ token: [] }]);
    assert.deepEqual(document.paths['/'].get.security, []);
    assert.equal(document.paths['/widgets'].get.security, undefined);
  });

  test('an unknown version is refused; the served text is the written one', () => {
    assert.throws(() => openApiDocument(SERVICE, '1.4'), UnknownDocumentVersionError);
    assert.throws(() => openApiDocument(SERVICE, '01.1'), UnknownDocumentVersionError);
    const documents = new OpenApiDocuments(SERVICE);
    assert.equal(documents.text('1.2.json'), openApiText(SERVICE, '1.2'));
    assert.equal(documents.text('1.2.json'), documents.text('1.2.json'));
    for (const file of ['1.2', '1.4.json', 'latest.json', '../1.2.json', '']) {
      assert.equal(documents.text(file), undefined, file);
    }
    assert.ok(openApiText(SERVICE, '1.0').endsWith('}\n'));
  });
});
