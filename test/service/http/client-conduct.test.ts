/**
 * What clients do at the edge of HTTP, on both services as their composition roots start them
 * (issue 22 §4), their log lines captured: an aborted upload is one warning line, never an
 * error with a stack; a client that half-closes after a complete request still gets its
 * answer and its log line; a lone surrogate in a JSON body is a 400 in the service's format and
 * nothing is stored; and the bare metal API answers what Node's HTTP parser refuses (bad bytes
 * in the URL, a bad Content-Length, an unknown method, headers too large) as a fault
 * `{"error_message": …}` with a request id, as Placement does in its format.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { planBaremetal, startBaremetalApi } from '../../../src/baremetal/service.ts';
import { planPlacementApi, startPlacementApi } from '../../../src/placement/service.ts';

type Line = Record<string, unknown>;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Running {
  readonly port: number;
  readonly lines: Line[];
  stop(): Promise<unknown>;
}

interface Service {
  readonly name: string;
  readonly requestIdHeader: string;
  /** A create whose body names `value`, and the read listing what was created. */
  readonly create: { readonly path: string; readonly headers: string; body(value: string): string };
  readonly list: { readonly path: string; readonly headers: string; count(body: string): number };
  /** The error text of a body in the service's format, and its request id when it has one. */
  error(body: string): { readonly text: string; readonly requestId?: string };
  start(dir: string): Promise<Running>;
}

const SERVICES: readonly Service[] = [
  {
    name: 'placement',
    requestIdHeader: 'x-openstack-request-id',
    create: {
      path: '/resource_providers',
      headers: 'X-Auth-Token: admin\r\nOpenStack-API-Version: placement 1.20\r\n',
      body: (value) => `{"name": "${value}"}`,
    },
    list: {
      path: '/resource_providers',
      headers: 'X-Auth-Token: admin\r\n',
      count: (body) =>
        (JSON.parse(body) as { resource_providers: unknown[] }).resource_providers.length,
    },
    error(body) {
      const [error] = (JSON.parse(body) as { errors: { detail: string; request_id: string }[] })
        .errors;
      return { text: error?.detail ?? '', requestId: error?.request_id };
    },
    async start(dir) {
      const lines: Line[] = [];
      const plan = await planPlacementApi({
        flags: { port: 0, useJson: true, databaseUrl: `sqlite:${join(dir, 'placement.sqlite')}` },
      });
      const server = await startPlacementApi(plan, {
        logSink: { write: (line: string) => lines.push(JSON.parse(line) as Line) },
      });
      return { port: server.address.port, lines, stop: () => server.close() };
    },
  },
  {
    name: 'baremetal',
    requestIdHeader: 'openstack-request-id',
    create: {
      path: '/v1/chassis',
      headers: 'X-OpenStack-Ironic-API-Version: 1.80\r\n',
      body: (value) => `{"description": "${value}"}`,
    },
    list: {
      path: '/v1/chassis',
      headers: '',
      count: (body) => (JSON.parse(body) as { chassis: unknown[] }).chassis.length,
    },
    error(body) {
      const fault = JSON.parse((JSON.parse(body) as { error_message: string }).error_message) as {
        faultstring: string;
        faultcode: string;
      };
      assert.equal(fault.faultcode, 'Client');
      return { text: fault.faultstring };
    },
    async start(dir) {
      const lines: Line[] = [];
      const plan = await planBaremetal({
        flags: {
          databaseUrl: `sqlite:${join(dir, 'bm.sqlite')}`,
          apiPort: 0,
          drainDelaySeconds: 0,
          useJson: true,
        },
      });
      const running = await startBaremetalApi(plan, {
        logSink: { write: (line: string) => lines.push(JSON.parse(line) as Line) },
      });
      return { port: Number(new URL(running.url).port), lines, stop: () => running.stop() };
    },
  },
];

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Sends `data` (then half-closes when `halfClose`), reads until the server closes. */
function exchange(port: number, data: string, halfClose = false): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.setTimeout(5000, () => socket.destroy());
    socket.on('close', () => {
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) {
        resolve(undefined);
        return;
      }
      const [statusLine = '', ...fields] = received.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const field of fields) {
        const colon = field.indexOf(':');
        headers[field.slice(0, colon).toLowerCase()] = field.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: received.slice(end + 4) });
    });
    socket.write(data, 'latin1');
    if (halfClose) socket.end();
  });
}

function request(method: string, path: string, headers: string, body?: string): string {
  const length =
    body === undefined
      ? ''
      : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
  return `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${headers}${length}\r\n${body ?? ''}`;
}

for (const service of SERVICES) {
  describe(`${service.name}: clients at the edge of HTTP`, () => {
    let dir: string;
    let running: Running;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), `baton-conduct-${service.name}-`));
      running = await service.start(dir);
    });
    after(async () => {
      await running.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('logs an aborted upload as one warning line, without a stack', async () => {
      const before = running.lines.length;
      const socket = connect(running.port, '127.0.0.1');
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        `POST ${service.create.path} HTTP/1.1\r\nHost: localhost\r\n${service.create.headers}` +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name": "trunc',
      );
      await sleep(150);
      socket.destroy();
      await sleep(300);
      const lines = running.lines.slice(before);
      assert.deepEqual(
        lines.filter((line) => line.level === 'error'),
        [],
        'no error line',
      );
      const warnings = lines.filter((line) => line.level === 'warn');
      assert.equal(warnings.length, 1, JSON.stringify(lines));
      assert.match(String(warnings[0]?.msg), /aborted/);
      assert.equal(warnings[0]?.err, undefined);
      assert.equal(warnings[0]?.aborted, true);
      assert.equal(warnings[0]?.status, 400);
    });

    it('answers a client that half-closes after a complete request, and logs it', async () => {
      const sent = [
        request('GET', service.list.path, service.list.headers),
        request('POST', service.create.path, service.create.headers, service.create.body('half')),
      ];
      for (const data of sent) {
        const before = running.lines.length;
        const answer = await exchange(running.port, data, true);
        assert.ok(answer !== undefined, `no answer to ${data.split(' ')[0]}`);
        assert.ok(answer.status >= 200 && answer.status < 300, answer.body);
        await sleep(50);
        const id = answer.headers[service.requestIdHeader];
        const logged = running.lines.slice(before).filter((line) => line.request_id === id);
        assert.deepEqual(
          logged.map((line) => [line.msg, line.status]),
          [['request', answer.status]],
        );
      }
    });

    it('refuses a lone surrogate in a JSON body with a 400, storing nothing', async () => {
      const listedBefore = await exchange(
        running.port,
        request('GET', service.list.path, service.list.headers),
      );
      for (const value of ['a\\ud800b', 'a\\udc00', '\\ud800\\ud800\\udc00']) {
        const answer = await exchange(
          running.port,
          request('POST', service.create.path, service.create.headers, service.create.body(value)),
        );
        assert.equal(answer?.status, 400, answer?.body);
        assert.match(service.error(answer?.body ?? '').text, /lone surrogate \(\\ud[8c]00\)/);
      }
      const listed = await exchange(
        running.port,
        request('GET', service.list.path, service.list.headers),
      );
      assert.equal(
        service.list.count(listed?.body ?? ''),
        service.list.count(listedBefore?.body ?? ''),
      );
      // A well-formed pair is text: stored as it was sent.
      const pair = await exchange(
        running.port,
        request(
          'POST',
          service.create.path,
          service.create.headers,
          service.create.body('\\ud83d\\ude00'),
        ),
      );
      assert.ok(pair?.status === 200 || pair?.status === 201, pair?.body);
    });

    it('answers what the HTTP parser refuses in its format, with a request id', async () => {
      const refused: readonly [string, number][] = [
        ['GET /v1/\x01nodes HTTP/1.1\r\nHost: x\r\n\r\n', 400],
        // (Placement reads such a length as its WSGI server passes it on: its own 400.)
        [
          'GET /v1/nodes HTTP/1.1\r\nHost: x\r\nX-Auth-Token: admin\r\nContent-Length: 1x\r\n\r\n',
          400,
        ],
        ['BREW /v1/nodes HTTP/1.1\r\nHost: x\r\n\r\n', 400],
        [`GET /v1/nodes HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ];
      for (const [data, status] of refused) {
        const answer = await exchange(running.port, data);
        assert.equal(answer?.status, status, JSON.stringify(data.slice(0, 40)));
        const id = answer?.headers[service.requestIdHeader] ?? '';
        assert.match(id, /^req-[0-9a-f-]{36}$/);
        assert.equal(answer?.headers['content-type'], 'application/json');
        const error = service.error(answer?.body ?? '');
        assert.ok(error.text.length > 0);
        if (error.requestId !== undefined) assert.equal(error.requestId, id);
      }
    });
  });
}
