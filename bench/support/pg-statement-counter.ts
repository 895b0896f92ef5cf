/**
 * Counts the statements a process sends to PostgreSQL: a TCP proxy between it and the server
 * that reads the client's side of the wire protocol. PostgreSQL here has no
 * pg_stat_statements loaded, and its per-database counters mix every process on the database;
 * the proxy counts one process's statements exactly, whatever its driver: psycopg2 sends each
 * statement as a simple Query ('Q'), node-postgres parameterized ones as Parse/Bind/Execute
 * ('E' once per run). Transaction control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE) is
 * counted apart. The connection must not use TLS (the server here has ssl off; a TLS request
 * is passed on and refused by it).
 */
import { createConnection, createServer, type Server } from 'node:net';

const TRANSACTION_CONTROL =
  /^\s*(begin|start transaction|commit|end|rollback|savepoint|release)\b/i;

/** The statements seen so far. */
export interface StatementCounts {
  statements: number;
  transactionControl: number;
}

/**
 * Reads a client's byte stream as PostgreSQL frontend messages and counts them. The first
 * messages carry no type byte (an SSL or GSS request, then the startup message).
 */
export class FrontendMessageReader {
  #buffer: Buffer = Buffer.alloc(0);
  #started = false;
  /** Parsed statement texts by name ('' the unnamed one), to tell a COMMIT sent by Execute. */
  readonly #parsed = new Map<string, string>();
  /** The statement each portal was bound to. */
  readonly #portals = new Map<string, string>();
  readonly counts: StatementCounts;
  /** Called with each statement's text as it is counted (to see which they are). */
  readonly onStatement: ((text: string) => void) | undefined;

  constructor(counts: StatementCounts, onStatement?: (text: string) => void) {
    this.counts = counts;
    this.onStatement = onStatement;
  }

  push(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      if (!this.#started) {
        if (this.#buffer.length < 8) return;
        const length = this.#buffer.readInt32BE(0);
        if (this.#buffer.length < length) return;
        const code = this.#buffer.readInt32BE(4);
        // 196608 is protocol 3.0's startup message; the others are SSL/GSS/cancel requests.
        if (code === 196608) this.#started = true;
        this.#buffer = this.#buffer.subarray(length);
        continue;
      }
      if (this.#buffer.length < 5) return;
      const length = this.#buffer.readInt32BE(1);
      if (this.#buffer.length < 1 + length) return;
      const type = String.fromCharCode(this.#buffer[0] as number);
      this.#message(type, this.#buffer.subarray(5, 1 + length));
      this.#buffer = this.#buffer.subarray(1 + length);
    }
  }

  #message(type: string, body: Buffer): void {
    const cString = (from: number): [string, number] => {
      const end = body.indexOf(0, from);
      return [body.toString('utf8', from, end), end + 1];
    };
    if (type === 'Q') {
      this.#count(cString(0)[0]);
    } else if (type === 'P') {
      const [name, next] = cString(0);
      this.#parsed.set(name, cString(next)[0]);
    } else if (type === 'B') {
      const [portal, next] = cString(0);
      this.#portals.set(portal, cString(next)[0]);
    } else if (type === 'E') {
      const statement = this.#portals.get(cString(0)[0]) ?? '';
      this.#count(this.#parsed.get(statement) ?? '');
    }
  }

  #count(text: string): void {
    this.onStatement?.(text);
    if (TRANSACTION_CONTROL.test(text)) this.counts.transactionControl++;
    else this.counts.statements++;
  }
}

/** A proxy to `target` (host:port) on a free loopback port, counting what clients send. */
export class StatementCountingProxy {
  readonly counts: StatementCounts = { statements: 0, transactionControl: 0 };
  readonly #server: Server;
  readonly #target: { host: string; port: number };
  port = 0;
  onStatement: ((text: string) => void) | undefined;

  constructor(target: { host: string; port: number }) {
    this.#target = target;
    this.#server = createServer((client) => {
      const reader = new FrontendMessageReader(this.counts, this.onStatement);
      const server = createConnection(this.#target);
      client.on('data', (chunk: Buffer) => {
        reader.push(chunk);
        server.write(chunk);
      });
      server.on('data', (chunk: Buffer) => client.write(chunk));
      client.on('end', () => server.end());
      server.on('end', () => client.end());
      client.on('error', () => server.destroy());
      server.on('error', () => client.destroy());
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    if (address === null || typeof address === 'string') throw new Error('no proxy port');
    this.port = address.port;
  }

  /** `url` (a PostgreSQL URL) through this proxy. */
  through(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  /** Stops listening and cuts the connections still open. */
  close(): void {
    this.#server.close();
  }
}
