/**
 * The stop of an API process (src/service/http/http-drain.ts), on real processes of both
 * services (`baton placement serve`, `baton baremetal api`) and real sockets: an idle
 * keep-alive client does not delay the exit, a slow request in flight is answered, a request
 * arriving after the drain wait on a connection still open gets the service's own 503, and
 * `[DEFAULT] graceful_shutdown_timeout` cuts a request that never ends (exit 1, the count in
 * the log).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../../../src/cli/main.ts';

const MAIN = join(import.meta.dirname, '../../../src/cli/main.ts');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Service {
  readonly name: 'placement' | 'baremetal';
  readonly command: readonly string[];
  /** A write: its path and headers. */
  readonly post: { readonly path: string; readonly headers: string };
  readonly requestIdHeader: string;
  /** Checks a 503 body is in the service's own error format. */
  checkRefusal(body: string): void;
  prepare(db: string): Promise<void>;
}

const SERVICES: readonly Service[] = [
  {
    name: 'placement',
    command: ['placement', 'serve'],
    post: {
      path: '/resource_providers',
      headers: 'X-Auth-Token: admin\r\nOpenStack-API-Version: placement 1.20\r\n',
    },
    requestIdHeader: 'x-openstack-request-id',
    checkRefusal(body) {
      const parsed = JSON.parse(body) as {
        errors: { status: number; title: string; detail: string; request_id: string }[];
      };
      assert.equal(parsed.errors.length, 1);
      const [error] = parsed.errors;
      assert.equal(error?.status, 503);
      assert.equal(error?.title, 'Service Unavailable');
      assert.match(error?.detail ?? '', /shutting down/);
      assert.match(error?.request_id ?? '', /^req-/);
    },
    prepare: async () => {},
  },
  {
    name: 'baremetal',
    command: ['baremetal', 'api'],
    post: { path: '/v1/chassis', headers: 'X-OpenStack-Ironic-API-Version: 1.80\r\n' },
    requestIdHeader: 'openstack-request-id',
    checkRefusal(body) {
      const parsed = JSON.parse(body) as { error_message: string };
      const fault = JSON.parse(parsed.error_message) as { faultstring: string };
      assert.match(fault.faultstring, /shutting down/);
    },
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
  readonly output: () => { out: string; err: string };
  /** Resolves with the status and the milliseconds from `signalledAt`. */
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
  return { child, port: Number(new URL(url).port), output: () => ({ out, err }), exit };
}

/** A raw connection collecting what the server sends, and whether the server closed it. */
class Connection {
  readonly socket: Socket;
  received = '';
  readonly ended: Promise<void>;
  readonly opened: Promise<void>;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk) => {
      this.received += chunk;
    });
    this.socket.on('error', () => {});
    this.opened = new Promise((resolve) => this.socket.once('connect', () => resolve()));
    this.ended = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** Resolves once `count` complete answers (by content-length) have arrived. */
  async answers(count: number, timeoutMs = 10_000): Promise<Answer[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = parseAnswers(this.received);
      if (parsed.length >= count) return parsed;
      if (Date.now() > deadline) throw new Error(`no ${count} answers in: ${this.received}`);
      await sleep(20);
    }
  }
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

function parseAnswers(text: string): Answer[] {
  const answers: Answer[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return answers;
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < end + 4 + length) return answers;
    answers.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: rest.slice(end + 4, end + 4 + length),
    });
    rest = rest.slice(end + 4 + length);
  }
}

function postHead(service: Service, bodyLength: number): string {
  return (
    `POST ${service.post.path} HTTP/1.1\r\nHost: localhost\r\n${service.post.headers}` +
    `Content-Type: application/json\r\nContent-Length: ${bodyLength}\r\n\r\n`
  );
}

/** Resolves once the port refuses connections (the listener closed), within 10 s. */
async function closedListener(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('error', () => resolve(true));
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (refused) return;
    await sleep(100);
  }
  throw new Error(`port ${port} still accepts connections`);
}

/** Measures the exit after SIGTERM; resolves with the status and the seconds it took. */
async function stop(running: Running): Promise<{ status: number | null; seconds: number }> {
  const started = performance.now();
  running.child.kill('SIGTERM');
  const status = await running.exit;
  return { status, seconds: (performance.now() - started) / 1000 };
}

for (const service of SERVICES) {
  describe(`stopping ${service.command.join(' ')}`, () => {
    let dir: string;
    let count = 0;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), `http-drain-${service.name}-`));
    });
    after(() => rm(dir, { recursive: true, force: true }));
    const database = async () => {
      const db = `sqlite:${join(dir, `db-${++count}.sqlite`)}`;
      await service.prepare(db);
      return db;
    };

    it('an idle keep-alive client does not delay the exit; a slow request in flight is answered, with Connection: close', async () => {
      const running = await serve(service, await database(), [
        '--drain-delay',
        '3',
        '--graceful-shutdown-timeout',
        '30',
      ]);
      const idle = new Connection(running.port);
      await idle.opened;
      idle.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
      const [first] = await idle.answers(1);
      assert.equal(first?.status, 200);
      assert.notEqual(first?.headers.connection, 'close', 'kept alive while serving');
      // A write whose body is still arriving when SIGTERM lands and until the wait is over.
      const body = JSON.stringify({ name: `slow-${service.name}` });
      const slow = new Connection(running.port);
      await slow.opened;
      slow.write(postHead(service, Buffer.byteLength(body)) + body.slice(0, 3));
      await sleep(200);
      const stopped = stop(running);
      const signalled = performance.now();
      await sleep(200);
      // Meanwhile the health check fails and the listener still serves, closing each connection.
      const health = await fetch(`http://127.0.0.1:${running.port}/healthcheck`);
      assert.equal(health.status, 503);
      assert.equal(await health.text(), 'DRAINING');
      assert.equal(health.headers.get('connection'), 'close');
      await sleep(3500 - (performance.now() - signalled));
      slow.write(body.slice(3));
      const [answer] = await slow.answers(1);
      const answeredAt = performance.now();
      assert.ok(answer !== undefined && answer.status < 500, `answered: ${slow.received}`);
      assert.equal(answer.headers.connection, 'close');
      const { status, seconds } = await stopped;
      const afterAnswer = (performance.now() - answeredAt) / 1000;
      assert.equal(status, 0, running.output().err);
      // The drain wait, then only the rest of the slow request: never the keep-alive timeout
      // (72 s) of the idle client (wide margins: the machine is shared).
      assert.ok(afterAnswer < 3, `exited ${afterAnswer} s after the last answer`);
      assert.ok(seconds < 15, `exited ${seconds} s after SIGTERM: ${running.output().err}`);
      await Promise.all([idle.ended, slow.ended]);
      assert.match(running.output().out, /health check failed for 3 s/);
    });

    it('a request arriving after the wait on a connection still open gets the service’s 503', async () => {
      const running = await serve(service, await database(), ['--drain-delay', '1']);
      const late = new Connection(running.port);
      await late.opened;
      // A client slow to send its headers: the connection is not idle, so it stays open.
      late.write('GET / HTTP/1.1\r\nHost: loc');
      await sleep(200);
      const stopped = stop(running);
      await closedListener(running.port);
      late.write('alhost\r\n\r\n');
      const [answer] = await late.answers(1);
      assert.equal(answer?.status, 503, late.received);
      assert.equal(answer.headers.connection, 'close');
      assert.match(answer.headers[service.requestIdHeader] ?? '', /^req-/);
      assert.match(answer.headers['content-type'] ?? '', /^application\/json/);
      service.checkRefusal(answer.body);
      await late.ended;
      const { status } = await stopped;
      assert.equal(status, 0, running.output().err);
    });

    it('graceful_shutdown_timeout cuts a request that never ends: exit 1, the count in the log', async () => {
      const running = await serve(service, await database(), [
        '--drain-delay',
        '0',
        '--graceful-shutdown-timeout',
        '1',
      ]);
      const endless = new Connection(running.port);
      await endless.opened;
      endless.write(`${postHead(service, 1000)}{"na`);
      await sleep(300);
      const { status, seconds } = await stop(running);
      assert.equal(status, 1);
      assert.ok(seconds >= 1 && seconds < 4, `exited ${seconds} s after SIGTERM`);
      const { out, err } = running.output();
      assert.match(
        err,
        /graceful_shutdown_timeout \(1 s\) passed: cutting 1 request\(s\) in flight/,
      );
      assert.match(out, /stopped: graceful_shutdown_timeout passed, 1 request\(s\) in flight cut/);
      await endless.ended;
    });
  });
}
