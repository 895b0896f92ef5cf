/** `sendRecorded`: each request of a load in the request log, served only with the expected status. */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sendRecorded } from '../../src/rehearsal/recorded-request.ts';
import { RequestLog } from '../../src/rehearsal/request-log.ts';

describe('sendRecorded', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        if (request.url === '/notes' && request.method === 'POST') {
          response.writeHead(201, { 'Content-Type': 'application/json', 'X-Seen': 'yes' });
          response.end(JSON.stringify({ got: JSON.parse(body), header: request.headers['x-v'] }));
        } else {
          response.writeHead(404);
          response.end('{"error": "no such note"}');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('sends JSON with the headers given, and records a served answer', async () => {
    const log = new RequestLog();
    const answer = await sendRecorded(log, {
      kind: 'create',
      method: 'POST',
      url: `${base}/notes`,
      expected: 201,
      headers: { 'X-V': '1.1' },
      body: { text: 'hello' },
    });
    assert.deepEqual(answer?.body, { got: { text: 'hello' }, header: '1.1' });
    assert.equal(answer?.headers.get('x-seen'), 'yes');
    assert.equal(log.records.length, 1);
    const [record] = log.records;
    assert.equal(record?.kind, 'create');
    assert.equal(record?.path, '/notes');
    assert.equal(record?.status, 201);
    assert.equal(record?.ok, true);
    assert.equal(record?.detail, undefined);
  });

  it('records another status as failed, with the body, and no answer at all as status 0', async () => {
    const log = new RequestLog();
    const missing = await sendRecorded(log, {
      kind: 'show',
      method: 'GET',
      url: `${base}/notes/1`,
      expected: 200,
    });
    assert.equal(missing, undefined);
    assert.equal(log.records[0]?.status, 404);
    assert.equal(log.records[0]?.ok, false);
    assert.equal(log.records[0]?.detail, '{"error": "no such note"}');
    const refused = await sendRecorded(log, {
      kind: 'show',
      method: 'GET',
      url: 'http://127.0.0.1:1/notes',
      expected: 200,
    });
    assert.equal(refused, undefined);
    assert.equal(log.records[1]?.status, 0);
    assert.match(log.records[1]?.detail ?? '', /ECONNREFUSED/);
  });
});
