/**
 * Slow clients cannot keep others out (src/service/http/connection-limits.ts, issue 22 §4), on
 * real processes of both services with small bounds (`--request-receive-timeout 1`,
 * `--max-client-connections 100`): 300 connections trickling request bodies, a new client is
 * still answered at once, every trickling connection is cut soon after the bound (408 in the
 * service's format for those still held), and the cut is logged as a warning.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { runCli } from '../../../src/cli/main.ts';
import {
  DEFAULT_CONNECTION_LIMITS,
  limitConnections,
} from '../../../src/service/http/connection-limits.ts';

const MAIN = join(import.meta.dirname, '../../../src/cli/main.ts');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const SLOW_CLIENTS = 300;

interface Service {
  readonly name: 'placement' | 'baremetal';
  readonly command: readonly string[];
  readonly post: { readonly path: string; readonly headers: string };
  /** A GET any client may make, answered 200. */
  readonly probe: { readonly path: string; readonly headers: Record<string, string> };
  /** The faultstring or detail of an error body in the service's format. */
  errorText(body: string): string;
  prepare(db: string): Promise<void>;
}

const SERVICES: readonly Service[] = [
  {
    name: 'placement',
    command: ['placement', 'serve'],
    post: { path: '/resource_providers', headers: 'X-Auth-Token: admin\r\n' },
    probe: { path: '/resource_providers', headers: { 'x-auth-token': 'admin' } },
    errorText: (body) =>
      (JSON.parse(body) as { errors: { detail: string }[] }).errors[0]?.detail ?? '',
    prepare: async () => {},
  },
  {
    name: 'baremetal',
    command: ['baremetal', 'api'],
    post: { path: '/v1/chassis', headers: '' },
    probe: { path: '/v1/chassis', headers: {} },
    errorText: (body) =>
      (
        JSON.parse((JSON.parse(body) as { error_message: string }).error_message) as {
          faultstring: string;
        }
      ).faultstring,
    async prepare(db) {
      const status = await runCli(['db', 'upgrade', '--service', 'baremetal', '--db', db], {
        out: () => {},
        err: () => {},
      });
      assert.equal(status, 0);
    },
  },
];

interface Running {
  readonly child: ChildProcess;
  readonly port: number;
  readonly err: () => string;
  readonly exit: Promise<number | null>;
}

async function serve(service: Service, db: string, args: readonly string[]): Promise<Running> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', MAIN, ...service.command, '--db', db, '--port', '0', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const found = out.match(/listening on (http:\/\/\S+)/);
      if (found?.[1]) resolve(found[1]);
    });
    exit.then((code) => reject(new Error(`exited ${code} before listening: ${out}${err}`)));
  });
  return { child, port: Number(new URL(url).port), err: () => err, exit };
}

/** A client sending a request head, then its body one byte every 100 ms. */
class SlowClient {
  readonly socket: Socket;
  received = '';
  closedAt: number | undefined;
  readonly closed: Promise<void>;
  #timer: NodeJS.Timeout | undefined;

  constructor(port: number, service: Service) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk) => {
      this.received += chunk;
    });
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      this.socket.once('close', () => {
        this.closedAt = performance.now();
        clearInterval(this.#timer);
        resolve();
      }),
    );
    this.socket.once('connect', () => {
      this.socket.write(
        `POST ${service.post.path} HTTP/1.1\r\nHost: localhost\r\n${service.post.headers}` +
          'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
      );
      this.#timer = setInterval(() => this.socket.write(' '), 100);
    });
  }

  stop(): void {
    clearInterval(this.#timer);
    this.socket.destroy();
  }
}

function get(port: number, service: Service): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: service.probe.path,
        headers: service.probe.headers,
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }),
        );
      },
    );
    req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
    req.end();
  });
}

for (const service of SERVICES) {
  describe(`${service.name}: slow clients are bounded`, () => {
    let dir: string;
    let db: string;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), `baton-limits-${service.name}-`));
      db = `sqlite:${join(dir, 'db.sqlite')}`;
      await service.prepare(db);
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it('serves a new client past 300 trickling connections and cuts them within the bound', async () => {
      const running = await serve(service, db, [
        '--request-receive-timeout',
        '1',
        '--max-client-connections',
        '100',
      ]);
      const clients: SlowClient[] = [];
      try {
        const started = performance.now();
        for (let i = 0; i < SLOW_CLIENTS; i++) clients.push(new SlowClient(running.port, service));
        await sleep(300);
        // Past the limit, the oldest trickling connections made room: a new client is served.
        const answer = await get(running.port, service);
        assert.equal(answer.status, 200);
        assert.ok(answer.ms < 3000, `answered in ${answer.ms} ms`);
        // Every trickling connection is cut: evicted, or timed out within the bound (1 s,
        // checked every 250 ms) with a 408 in the service's format.
        const deadline = performance.now() + 15_000;
        while (clients.some((client) => client.closedAt === undefined)) {
          const open = clients.filter((client) => client.closedAt === undefined).length;
          if (performance.now() > deadline) assert.fail(`${open} still open`);
          await sleep(50);
        }
        const timedOut = clients.filter((client) => client.received !== '');
        assert.ok(timedOut.length > 0 && timedOut.length <= 100, `${timedOut.length} answered`);
        for (const client of timedOut) {
          assert.match(client.received, /^HTTP\/1\.1 408 /);
          const body = client.received.slice(client.received.indexOf('\r\n\r\n') + 4);
          assert.match(service.errorText(body), /The request was not received in time\./);
          assert.ok((client.closedAt ?? Infinity) - started < 5000);
        }
        // Still serving, and the cut connections are in the log, as a warning.
        assert.equal((await get(running.port, service)).status, 200);
        await sleep(200);
        assert.match(running.err(), /slow or excess client connections cut/);
        assert.doesNotMatch(running.err(), /ERROR/);
        // Counted in the report, not one line each (a flood must not flood the log).
        assert.doesNotMatch(running.err(), /request aborted/);
        assert.ok(
          (running.err().match(/slow or excess client connections cut/g) ?? []).length <= 2,
          running.err(),
        );
      } finally {
        for (const client of clients) client.stop();
        running.child.kill('SIGTERM');
        await running.exit;
      }
    });
  });
}

describe('a client that half-closes after its request', () => {
  it('gets its answer, however long the answer takes', async () => {
    const app = Fastify();
    limitConnections(app.server, DEFAULT_CONNECTION_LIMITS, app.log);
    app.get('/slow', async () => {
      await sleep(200);
      return { answered: true };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const port = (app.server.address() as { port: number }).port;
      const received = await new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk;
        });
        socket.on('error', () => {});
        socket.on('close', () => resolve(text));
        // The request, then the client's end of the stream (shutdown(SHUT_WR)).
        socket.end('GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
      });
      assert.match(received, /^HTTP\/1\.1 200 /);
      assert.match(received, /\{"answered":true\}$/);
    } finally {
      await app.close();
    }
  });
});
