/**
 * Driving a `baton placement serve` child process over HTTP for benchmarks: a keep-alive
 * client, a free port, start (waits for GET / to answer) and stop, percentiles.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: benchmarks read arbitrary response bodies
  body: any;
}

export class PlacementHttp {
  readonly #agent: Agent;
  readonly #port: number;
  readonly #version: string;

  /**
   * `keepAlive: false` opens a connection per request: a single-threaded uWSGI worker holds a
   * keep-alive connection between requests while others queue behind it for seconds.
   */
  constructor(
    port: number,
    options: { sockets?: number; version?: string; keepAlive?: boolean } = {},
  ) {
    this.#port = port;
    this.#agent = new Agent({
      keepAlive: options.keepAlive ?? true,
      maxSockets: options.sockets ?? 16,
    });
    this.#version = options.version ?? 'placement 1.39';
  }

  async call(method: string, path: string, body?: unknown): Promise<Reply> {
    const reply = await this.callText(method, path, body);
    return {
      status: reply.status,
      body: reply.text === '' ? undefined : JSON.parse(reply.text),
    };
  }

  /** The answer's text, unparsed (a load generator reading big bodies cheaply). */
  callText(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; text: string }> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string | number> = {
      'x-auth-token': 'admin',
      'openstack-api-version': this.#version,
      accept: 'application/json',
    };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: this.#port, method, path, headers, agent: this.#agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

export function expectStatus(reply: Reply, statuses: number[], what: string): Reply {
  if (!statuses.includes(reply.status)) {
    throw new Error(`${what}: HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return reply;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts `baton placement serve` on the database and waits until it answers. */
export async function startPlacementServer(
  url: string,
  port: number,
  extraArgs: readonly string[] = [],
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.SERVER_NODE_ARGS ?? '').split(' ').filter((a) => a !== ''),
      '--import',
      'tsx',
      'src/cli/main.ts',
      'placement',
      'serve',
      '--port',
      String(port),
      '--db',
      url,
      ...(process.env.SERVER_ARGS ?? '').split(' ').filter((a) => a !== ''),
      ...extraArgs,
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const http = new PlacementHttp(port);
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        if ((await http.call('GET', '/')).status === 200) return child;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('server did not start within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    http.close();
  }
}

export async function stopPlacementServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;
}
