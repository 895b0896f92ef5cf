/**
 * A keep-alive HTTP client for an Ironic-compatible API (Baton's or the real one), at one fixed
 * microversion: the same client code loads both servers in a benchmark.
 */
import { Agent, request as httpRequest } from 'node:http';

export interface IronicReply {
  status: number;
  /**
   * The decoded body, decoded when first read: a figure times the server up to the answer's
   * last byte, not the client decoding a body it never reads (a list page is 236 kB of JSON).
   */
  // biome-ignore lint/suspicious/noExplicitAny: benchmarks read arbitrary response bodies
  readonly body: any;
}

/** A reply whose body is decoded on first reading. */
function reply(status: number, raw: Buffer): IronicReply {
  let decoded: { value: unknown } | undefined;
  return {
    status,
    get body() {
      if (decoded === undefined) {
        const text = raw.toString();
        decoded = { value: text === '' ? undefined : JSON.parse(text) };
      }
      return decoded.value;
    },
  };
}

export class IronicHttp {
  readonly #agent: Agent;
  readonly #url: URL;
  readonly #version: string;

  constructor(url: string, options: { sockets?: number; version: string }) {
    this.#url = new URL(url);
    this.#agent = new Agent({ keepAlive: true, maxSockets: options.sockets ?? 16 });
    this.#version = options.version;
  }

  call(method: string, path: string, body?: unknown): Promise<IronicReply> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string | number> = {
      'x-openstack-ironic-api-version': this.#version,
      accept: 'application/json',
    };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: this.#url.hostname,
          port: this.#url.port,
          method,
          path,
          headers,
          agent: this.#agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve(reply(res.statusCode ?? 0, Buffer.concat(chunks))));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Server errors (5xx) answered so far, each retried by `expect`. */
  serverErrors = 0;

  /**
   * Calls and throws unless the status is one of `statuses`. A 5xx is counted and the call
   * retried (up to 5 times): the real Ironic on SQLite answers 500 "database is locked" when
   * two of its processes write at once, and a client would retry.
   */
  async expect(
    statuses: readonly number[],
    method: string,
    path: string,
    body?: unknown,
  ): Promise<IronicReply> {
    for (let attempt = 1; ; attempt++) {
      const reply = await this.call(method, path, body);
      if (statuses.includes(reply.status)) return reply;
      if (reply.status < 500 || attempt === 5) {
        throw new Error(`${method} ${path}: HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
      }
      this.serverErrors++;
    }
  }

  close(): void {
    this.#agent.destroy();
  }
}
