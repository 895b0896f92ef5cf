/**
 * `auth_strategy = http_basic` (auth/http-basic.ts, api/http-basic-users.ts) on SQLite: the
 * answers the real Ironic 21.4.4 (ironic-lib's BasicAuthMiddleware) gave to the same requests,
 * observed side by side with an htpasswd file of bcrypt entries: its JSON body and
 * `WWW-Authenticate` on 401, its 400s, the public routes let through, no policy.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { httpBasicAuthenticator } from '../../../src/baremetal/api/http-basic-users.ts';
import { ConfigFileError } from '../../../src/service/index.ts';
import { type BatonApi, startBatonApi } from './support/baton-api.ts';

// alice:secret and bob:other, as Python's bcrypt wrote them.
const ALICE = 'alice:$2b$04$fKMfsmDXvRD7ORhtiqLAoeLcVaavKNkr9FDtAsBGLNCKGrT6DMGeG';
const BOB = 'bob:$2a$05$sdzLtfZu0R2wGZWe/GV0H.k98Q3nu6BzwgGhp5/UY8hjvjTpAKH.O';
const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

describe('auth_strategy = http_basic', () => {
  let dir: string;
  let file: string;
  let api: BatonApi;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-basic-'));
    file = join(dir, 'htpasswd');
    await writeFile(file, `${ALICE}\n${BOB}\n`);
    api = await startBatonApi({ auth: { authenticator: await httpBasicAuthenticator(file) } });
  });
  after(async () => {
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (url: string, authorization?: string) =>
    api.request({
      method: 'GET',
      url,
      headers: authorization === undefined ? {} : { authorization },
    });

  it('asks for credentials as ironic-lib does, without version headers', async () => {
    const answer = await get('/v1/nodes');
    assert.equal(answer.statusCode, 401);
    assert.equal(answer.headers['www-authenticate'], 'Basic realm="Baremetal API"');
    assert.equal(answer.headers['content-type'], 'application/json');
    assert.equal(answer.headers['x-openstack-ironic-api-version'], undefined);
    assert.equal(answer.body, '{"error":{"message":"Authorization required","code":401}}');
  });

  it("serves a user of the file, in the header's any case", async () => {
    const alice = await get('/v1/nodes', basic('alice:secret'));
    assert.equal(alice.statusCode, 200, alice.body);
    assert.equal(alice.headers['x-openstack-ironic-api-version'], '1.1');
    const bob = await get(
      '/v1/nodes?limit=1',
      `basic ${Buffer.from('bob:other').toString('base64')}`,
    );
    assert.equal(bob.statusCode, 200);
  });

  it('refuses with the real statuses and messages', async () => {
    const cases: [string, number, string][] = [
      [basic('alice:wrong'), 401, 'Incorrect username or password'],
      [basic('carol:wrong'), 401, 'Incorrect username or password'],
      ['Basic !!!', 400, 'Could not decode authorization token'],
      [basic('nocolon'), 400, 'Could not decode authorization token'],
      ['Bearer x', 400, 'Unsupported authorization type "Bearer"'],
      ['Basic', 400, 'Could not parse Authorization header'],
    ];
    for (const [header, status, message] of cases) {
      const answer = await get('/v1/nodes', header);
      assert.equal(answer.statusCode, status, header);
      assert.equal(answer.body, JSON.stringify({ error: { message, code: status } }), header);
      assert.equal(answer.headers['www-authenticate'] !== undefined, status === 401, header);
    }
  });

  it('lets the public routes through without credentials', async () => {
    assert.equal((await get('/v1')).statusCode, 200);
    assert.equal((await get('/')).statusCode, 200);
    const lookup = await get('/v1/lookup?addresses=zz');
    assert.equal(lookup.statusCode, 404);
    assert.match(lookup.body, /Resource could not be found/);
  });

  it('reads the file for every request', async () => {
    await writeFile(file, `${BOB}\ncarol:{SHA}x\n`);
    try {
      assert.equal((await get('/v1/nodes', basic('alice:secret'))).statusCode, 401);
      const carol = await get('/v1/nodes', basic('carol:x'));
      assert.equal(carol.statusCode, 500);
      assert.equal(
        JSON.parse(carol.body).error.message,
        'Invalid configuration file. Only bcrypt digested passwords are supported for carol',
      );
    } finally {
      await writeFile(file, `${ALICE}\n${BOB}\n`);
    }
    assert.equal((await get('/v1/nodes', basic('alice:secret'))).statusCode, 200);
  });

  it('refuses to start on a file it cannot read or with an entry not bcrypt', async () => {
    await assert.rejects(httpBasicAuthenticator(join(dir, 'missing')), (error: Error) => {
      assert.ok(error instanceof ConfigFileError);
      assert.match(error.message, /Problem reading auth user file/);
      return true;
    });
    const md5 = join(dir, 'md5');
    await writeFile(md5, 'dave:$apr1$x$y\n');
    await assert.rejects(
      httpBasicAuthenticator(md5),
      /Only bcrypt digested passwords are supported for dave/,
    );
  });
});
