/**
 * Runs the same RPC suites on the local, http and amqp transports. Each
 * `transport()` is a separate instance, as another process would have: on
 * the same bus (local), services table (http, a scratch SQLite database) or
 * broker (amqp, a per-suite exchange; the suite deletes its exchanges and
 * queues afterwards). RabbitMQ comes from BATON_TEST_AMQP_URL (default the
 * local broker); unreachable, its suite is skipped with the reason, except
 * under CI=true, where it fails.
 */
import { randomBytes } from 'node:crypto';
import { after, before, describe } from 'node:test';
import { connect } from 'amqplib';
import { type Database, openDatabase } from '../../../src/db/index.ts';
import {
  AmqpTransport,
  HttpTransport,
  LocalBus,
  LocalTransport,
  type RpcTransport,
} from '../../../src/rpc/index.ts';
import { servicesTablePeers } from '../../../src/service/index.ts';
import { createScratchDatabase } from '../../db/support/backends.ts';

export const AMQP_URL = process.env.BATON_TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672/';
export const TRANSPORT_KINDS = ['local', 'http', 'amqp'] as const;
export type TransportKind = (typeof TRANSPORT_KINDS)[number];

const inCi = process.env.CI === 'true';

/** Whether the broker answers; under CI=true an unreachable one is an error. */
export async function brokerAvailable(): Promise<string | undefined> {
  try {
    const model = await connect(AMQP_URL, { timeout: 3000 });
    await model.close();
    return undefined;
  } catch (error) {
    const reason = `RabbitMQ unavailable at ${AMQP_URL}: ${error instanceof Error ? error.message : String(error)}`;
    if (inCi) throw new Error(`${reason} (CI=true: the amqp transport must be tested)`);
    return reason;
  }
}

/** Deletes what a suite left on the broker (topics' queues and fanout exchanges, the exchange). */
export async function cleanBroker(
  exchange: string,
  topics: readonly string[],
  servers: readonly string[],
) {
  const model = await connect(AMQP_URL);
  try {
    const channel = await model.createChannel();
    for (const topic of topics) {
      await channel.deleteQueue(topic);
      for (const server of servers) await channel.deleteQueue(`${topic}.${server}`);
      await channel.deleteExchange(`${topic}_fanout`);
    }
    await channel.deleteExchange(exchange);
    await channel.close();
  } finally {
    await model.close();
  }
}

export interface TransportContext {
  readonly kind: TransportKind;
  /** A new transport instance (closed after the suite). */
  transport(options?: { sharedSecret?: string }): RpcTransport;
  /** A topic unique to this run. */
  topic(): string;
  /** The http suite's database. */
  db(): Database;
}

/** Server names the suites use, so the amqp cleanup knows the per-server queues. */
export const SERVER_NAMES = ['cond-1', 'cond-2', 'old-cond', 'new-cond'];

export function forEachTransport(title: string, body: (ctx: TransportContext) => void): void {
  for (const kind of TRANSPORT_KINDS) {
    describe(`${title} [${kind}]`, async () => {
      if (kind === 'amqp') {
        const unavailable = await brokerAvailable();
        if (unavailable !== undefined) {
          describe(unavailable, { skip: unavailable }, () => {});
          return;
        }
      }
      const run = randomBytes(4).toString('hex');
      const exchange = `baton_test_${run}`;
      const bus = new LocalBus();
      const made: RpcTransport[] = [];
      const topics: string[] = [];
      let scratch: { url: string; drop: () => Promise<void> } | undefined;
      let db: Database | undefined;
      before(async () => {
        if (kind === 'http') {
          scratch = await createScratchDatabase('sqlite');
          db = await openDatabase(scratch.url);
        }
      });
      after(async () => {
        await Promise.all(made.map((t) => t.close()));
        if (kind === 'amqp') await cleanBroker(exchange, topics, SERVER_NAMES);
        await db?.close();
        await scratch?.drop();
      });
      body({
        kind,
        transport(options = {}) {
          let transport: RpcTransport;
          if (kind === 'local') transport = new LocalTransport(bus);
          else if (kind === 'http') {
            if (db === undefined) throw new Error('database not open yet');
            transport = new HttpTransport({ peers: servicesTablePeers(db), ...options });
          } else transport = new AmqpTransport({ url: AMQP_URL, exchange });
          made.push(transport);
          return transport;
        },
        topic() {
          const topic = `conductor_${run}_${topics.length}`;
          topics.push(topic);
          return topic;
        },
        db() {
          if (db === undefined) throw new Error('only the http suite has a database');
          return db;
        },
      });
    });
  }
}
