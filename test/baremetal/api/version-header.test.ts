/**
 * The version header as the real Ironic 21.4.4 reads it: the texts and headers below are the
 * real service's answers (test/baremetal/api/real-ironic-api.test.ts sends the same requests
 * to both).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type BatonApi, startBatonApi } from './support/baton-api.ts';

const MIN = 'x-openstack-ironic-api-minimum-version';
const MAX = 'x-openstack-ironic-api-maximum-version';
const VERSION = 'x-openstack-ironic-api-version';

function inner(body: string): unknown {
  return JSON.parse((JSON.parse(body) as { error_message: string }).error_message);
}

describe('X-OpenStack-Ironic-API-Version', () => {
  let api: BatonApi;
  before(async () => {
    api = await startBatonApi();
  });
  after(() => api.close());

  const get = (path: string, version?: string) =>
    api.request({
      method: 'GET',
      url: path,
      headers: version === undefined ? {} : { 'X-OpenStack-Ironic-API-Version': version },
    });

  it('answers 1.1 without a header, with the min and max headers', async () => {
    const response = await get('/v1');
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers[VERSION], '1.1');
    assert.equal(response.headers[MIN], '1.1');
    assert.equal(response.headers[MAX], '1.82');
  });

  it('reads parts as Python int() does and latest in any case', async () => {
    for (const [sent, answered] of [
      ['01.05', '1.5'],
      [' 1.5', '1.5'],
      ['+1.5 ', '1.5'],
      ['1.1_0', '1.10'],
      ['latest', '1.82'],
      ['LaTeSt', '1.82'],
    ]) {
      const response = await get('/v1/chassis', sent);
      assert.equal(response.statusCode, 200, sent);
      assert.equal(response.headers[VERSION], answered, sent);
    }
  });

  it('refuses a malformed value with 406 and no version header at all', async () => {
    for (const sent of ['abc', '1', '1.2.3', '', '1.x', '1.5, 1.6']) {
      const response = await get('/v1/nodes', sent);
      assert.equal(response.statusCode, 406, sent);
      assert.equal(response.headers[VERSION], undefined);
      assert.equal(response.headers[MIN], undefined);
      assert.deepEqual(inner(response.body), {
        code: 406,
        title: 'Not Acceptable',
        description: 'Invalid value for X-OpenStack-Ironic-API-Version header',
      });
    }
  });

  it('refuses a version out of range with the range and the min/max headers', async () => {
    for (const [sent, description] of [
      [
        '1.0',
        'Version 1.0 was requested but the minor version is not supported by this service. The supported version range is: [1.1, 1.82].',
      ],
      [
        '1.83',
        'Version 1.83 was requested but the minor version is not supported by this service. The supported version range is: [1.1, 1.82].',
      ],
      [
        '2.1',
        'Mutually exclusive versions requested. Version 2.1 requested but not supported by this service. The supported version range is: [1.1, 1.82].',
      ],
      [
        '-1.5',
        'Mutually exclusive versions requested. Version -1.5 requested but not supported by this service. The supported version range is: [1.1, 1.82].',
      ],
    ]) {
      const response = await get('/v1/nodes', sent);
      assert.equal(response.statusCode, 406, sent);
      assert.equal(response.headers[VERSION], undefined);
      assert.equal(response.headers[MIN], '1.1');
      assert.equal(response.headers[MAX], '1.82');
      assert.deepEqual(inner(response.body), { code: 406, title: 'Not Acceptable', description });
    }
  });

  it('answers /v1 refusals as a fault (its handler refuses), deeper paths as WebOb errors', async () => {
    const response = await get('/v1', 'abc');
    assert.equal(response.statusCode, 406);
    assert.deepEqual(inner(response.body), {
      faultcode: 'Client',
      faultstring: 'Invalid value for X-OpenStack-Ironic-API-Version header',
      debuginfo: null,
    });
  });

  it('never versions the root document, whatever the header', async () => {
    const response = await get('/', 'abc');
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers[VERSION], undefined);
    assert.equal(response.headers[MAX], undefined);
    const body = response.json() as { default_version: { version: string; min_version: string } };
    assert.equal(body.default_version.version, '1.82');
    assert.equal(body.default_version.min_version, '1.1');
  });

  it('serves the caps in force: a lower apiMax is the maximum, latest and the 406 range', async () => {
    const pinned = await startBatonApi({ apiMax: '1.78' });
    try {
      const latest = await pinned.request({
        method: 'GET',
        url: '/v1',
        headers: { 'X-OpenStack-Ironic-API-Version': 'latest' },
      });
      assert.equal(latest.headers[VERSION], '1.78');
      assert.equal(latest.headers[MAX], '1.78');
      const refused = await pinned.request({
        method: 'GET',
        url: '/v1/nodes',
        headers: { 'X-OpenStack-Ironic-API-Version': '1.79' },
      });
      assert.equal(refused.statusCode, 406);
      assert.match(refused.body, /\[1\.1, 1\.78\]/);
    } finally {
      await pinned.close();
    }
  });

  it('serves paths without /v1 as the real root does, and answers unknown ones 404', async () => {
    const nodes = await get('/chassis', '1.80');
    assert.equal(nodes.statusCode, 200);
    assert.equal(nodes.headers[VERSION], '1.80');
    const unknown = await get('/v1/bogus', '1.80');
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.headers[VERSION], undefined);
    assert.deepEqual(inner(unknown.body), { code: 404, title: 'Not Found', description: '' });
  });
});
