/**
 * Requests Node's HTTP parser refuses, over a real socket: each is answered in Placement's
 * error format (never Fastify's `{"error","message","statusCode"}`), and where the real
 * Placement 8.0.0 under uWSGI answers, as it answers (docs/placement.md): a Content-Length
 * Python's int() refuses is its 400 after auth and version negotiation; a body that cannot be
 * framed or read is an empty one. The parser's behaviour does not depend on the backend:
 * SQLite only.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { maxHeaderSize } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../src/db/index.ts';
import { buildPlacementApp } from '../../../src/placement/api/app.ts';
import { parseRequestHead } from '../../../src/placement/api/client-errors.ts';
import { defaultPlacementConfig } from '../../../src/placement/config.ts';
import { createPolicyEnforcer } from '../../../src/placement/policy/index.ts';
import { preparePlacementDatabase } from '../../../src/placement/store/prepare-database.ts';
import { ResourceClassCache } from '../../../src/placement/store/resource-class-cache.ts';
import type { PlacementTables } from '../../../src/placement/store/tables.ts';

const BAD_REQUEST =
  'The server could not comply with the request since it is either malformed or otherwise incorrect.';

interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  // biome-ignore lint/suspicious/noExplicitAny: tests navigate arbitrary response bodies
  readonly body: any;
}

describe('requests the HTTP parser refuses', () => {
  let dir: string;
  let db: Database<PlacementTables>;
  let app: FastifyInstance;
  let port: number;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'baton-client-errors-'));
    const config = defaultPlacementConfig(`sqlite:${join(dir, 'placement.sqlite')}`);
    db = await preparePlacementDatabase(config.databaseUrl);
    app = await buildPlacementApp({
      services: {
        db,
        config,
        policy: await createPolicyEnforcer(config),
        resourceClasses: new ResourceClassCache(),
      },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  after(async () => {
    await app.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends the bytes, reads until the server closes the connection. */
  const send = (data: string): Promise<RawAnswer> =>
    new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('latin1');
        const end = text.indexOf('\r\n\r\n');
        if (end === -1) {
          reject(new Error(`no answer: ${JSON.stringify(text)}`));
          return;
        }
        const [statusLine, ...fields] = text.slice(0, end).split('\r\n');
        const headers: Record<string, string> = {};
        for (const field of fields) {
          const colon = field.indexOf(':');
          headers[field.slice(0, colon).toLowerCase()] = field.slice(colon + 1).trim();
        }
        const rest = text.slice(end + 4);
        resolve({
          status: Number(statusLine?.split(' ')[1]),
          headers,
          body: rest === '' ? undefined : JSON.parse(rest),
        });
      });
      socket.write(data);
    });

  const head = (lines: readonly string[], body = '') =>
    `${['Host: placement', ...lines].map((line) => `${line}\r\n`).join('')}\r\n${body}`;
  const post = (lines: readonly string[], body: string) =>
    send(
      `POST /resource_providers HTTP/1.1\r\n${head(['x-auth-token: admin', 'content-type: application/json', ...lines], body)}`,
    );
  const body = '{"name": "from-a-bad-request"}';

  /** Placement's JSON error, its request id the header's. */
  const assertPlacementError = (answer: RawAnswer, status: number, detail: string) => {
    assert.equal(answer.status, status);
    assert.equal(answer.headers['content-type'], 'application/json');
    assert.equal(answer.headers.connection, 'close');
    const [error] = answer.body.errors;
    assert.equal(error.status, status);
    assert.equal(error.detail, detail);
    assert.equal(error.request_id, answer.headers['x-openstack-request-id']);
    assert.match(error.request_id, /^req-[0-9a-f-]{36}$/);
  };

  const providerNamed = async (name: string) =>
    (
      await app.inject({
        method: 'GET',
        url: `/resource_providers?name=${name}`,
        headers: { 'x-auth-token': 'admin' },
      })
    ).json().resource_providers;

  describe('a Content-Length that is not an integer', () => {
    it("is the real service's 400, with the agreed version and no Vary", async () => {
      const answer = await post(['content-length: hi mom'], body);
      assertPlacementError(
        answer,
        400,
        `${BAD_REQUEST}\n\n content-length header must be an integer  `,
      );
      assert.equal(answer.headers['openstack-api-version'], 'placement 1.0');
      assert.equal(answer.headers.vary, undefined);
      assert.equal(answer.body.errors[0].code, undefined);
      assert.deepEqual(await providerNamed('from-a-bad-request'), []);
    });

    it('comes after version negotiation: a code from 1.23', async () => {
      const answer = await post(
        ['openstack-api-version: placement 1.39', 'content-length: 1 3'],
        body,
      );
      assertPlacementError(
        answer,
        400,
        `${BAD_REQUEST}\n\n content-length header must be an integer  `,
      );
      assert.equal(answer.headers['openstack-api-version'], 'placement 1.39');
      assert.equal(answer.body.errors[0].code, 'placement.undefined_code');
    });

    it('comes after auth: no token is the 401', async () => {
      const answer = await send(
        `POST /resource_providers HTTP/1.1\r\n${head(['content-type: application/json', 'content-length: hi mom'], body)}`,
      );
      assert.equal(answer.status, 401);
      assert.equal(answer.body.code, '401 Unauthorized');
    });

    it('comes before routing, and two differing lengths are not an integer either', async () => {
      let answer = await send(
        `GET /nowhere HTTP/1.1\r\n${head(['x-auth-token: admin', 'content-length: abc'])}`,
      );
      assertPlacementError(
        answer,
        400,
        `${BAD_REQUEST}\n\n content-length header must be an integer  `,
      );
      answer = await post(['content-length: 30', 'content-length: 31'], body);
      assertPlacementError(
        answer,
        400,
        `${BAD_REQUEST}\n\n content-length header must be an integer  `,
      );
    });
  });

  describe('a body that cannot be framed or read is an empty one', () => {
    const emptyJson = `${BAD_REQUEST}\n\n Malformed JSON: Expecting value: line 1 column 1 (char 0)  `;

    it('for lengths Python reads but HTTP does not (-5, +30, empty)', async () => {
      for (const length of ['-5', '+30', '']) {
        const answer = await post([`content-length: ${length}`], body);
        assertPlacementError(answer, 400, emptyJson);
        assert.equal(answer.headers.vary, 'openstack-api-version');
      }
      assert.deepEqual(await providerNamed('from-a-bad-request'), []);
    });

    it('for Content-Length beside Transfer-Encoding, and an unknown transfer coding', async () => {
      const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
      let answer = await post(
        ['transfer-encoding: chunked', `content-length: ${body.length}`],
        chunked,
      );
      assertPlacementError(answer, 400, emptyJson);
      answer = await post(['transfer-encoding: gzip'], body);
      assertPlacementError(answer, 400, emptyJson);
      assert.deepEqual(await providerNamed('from-a-bad-request'), []);
    });

    it('for a bad chunk, while good chunks are read', async () => {
      const bad = await post(['transfer-encoding: chunked'], `zz\r\n${body}\r\n0\r\n\r\n`);
      assertPlacementError(bad, 400, emptyJson);
      assert.deepEqual(await providerNamed('from-a-bad-request'), []);
      const good = await post(
        ['transfer-encoding: chunked', 'connection: close'],
        `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      );
      assert.equal(good.status, 201);
      assert.equal((await providerNamed('from-a-bad-request')).length, 1);
    });
  });

  describe('a request that cannot be read at all', () => {
    it('is a 400 for a malformed request line or header', async () => {
      let answer = await send('GARBAGE\r\nHost: placement\r\n\r\n');
      assertPlacementError(
        answer,
        400,
        `${BAD_REQUEST}\n\n Malformed HTTP request: Invalid method encountered.  `,
      );
      assert.equal(answer.headers['openstack-api-version'], undefined);
      answer = await send('GET / HTTP/1.1\r\nHost: placement\r\nnot a header\r\n\r\n');
      assertPlacementError(
        answer,
        400,
        `${BAD_REQUEST}\n\n Malformed HTTP request: Invalid header token.  `,
      );
    });

    it('is a 431 for headers too large', async () => {
      const answer = await send(`GET / HTTP/1.1\r\n${head([`x-big: ${'a'.repeat(70_000)}`])}`);
      assertPlacementError(
        answer,
        431,
        `The request header fields were too large\n\n The request line and headers exceed ${maxHeaderSize} bytes.  `,
      );
      assert.equal(answer.body.errors[0].title, 'Request Header Fields Too Large');
    });
  });

  it('answers a good request before a bad one on the same connection, then closes it', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.write('GET / HTTP/1.1\r\nHost: placement\r\n\r\nGARBAGE\r\n\r\n');
    });
    assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
    assert.equal(text.split('HTTP/1.1 ').length, 2, text);
  });

  it('refuses a body over the limit with a 413 in Placement format', async () => {
    const answer = await post(['content-length: 67108865', 'connection: close'], '');
    assert.equal(answer.status, 413);
    assert.equal(answer.body.errors[0].title, 'Request Entity Too Large');
    assert.match(answer.body.errors[0].detail, /^The body of your request was too large/);
  });

  it('reads a complete request head, and nothing else', () => {
    const raw = Buffer.from(
      'POST /a?b=c HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\ncontent-length: 2\r\n\r\nbody',
    );
    assert.deepEqual(parseRequestHead(raw), {
      method: 'POST',
      target: '/a?b=c',
      version: '1.1',
      headers: { host: 'x', 'content-length': '1, 2' },
    });
    assert.equal(parseRequestHead(Buffer.from('POST /a HTTP/1.1\r\nHost: x\r\n')), undefined);
    assert.equal(parseRequestHead(Buffer.from('GARBAGE\r\n\r\n')), undefined);
    assert.equal(parseRequestHead('not a buffer'), undefined);
  });
});
