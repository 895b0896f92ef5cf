/**
 * Runs the same test cases on SQLite, PostgreSQL and MariaDB. Each suite gets
 * a database of its own (a temporary SQLite file, or a fresh PostgreSQL /
 * MariaDB database dropped afterwards), so test files can run in parallel.
 *
 * Server URLs come from BATON_TEST_POSTGRES_URL and BATON_TEST_MYSQL_URL
 * (defaults: the project machines' local servers). When a server is
 * unreachable its suite is skipped with the reason, except under CI=true,
 * where it fails: CI never passes without testing every backend.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { sql } from 'kysely';
import { type Backend, type Database, openDatabase } from '../../../src/db/index.ts';

export const SERVER_URLS: Record<Exclude<Backend, 'sqlite'>, string> = {
  postgresql: process.env.BATON_TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test',
  mysql: process.env.BATON_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test',
};

export const BACKENDS: readonly Backend[] = ['sqlite', 'postgresql', 'mysql'];

const inCi = process.env.CI === 'true';

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * A fresh, empty database on a backend; `drop` removes it. On PostgreSQL, `template` names a
 * database (of the same server, no one connected to it) to copy instead of starting empty.
 */
export async function createScratchDatabase(
  backend: Backend,
  options: { readonly template?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'baton-test-'));
    return {
      url: `sqlite:${join(dir, 'test.sqlite')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = await openDatabase(SERVER_URLS[backend], { poolSize: 1 });
  const name = `baton_t_${randomBytes(5).toString('hex')}`;
  try {
    const template = options.template === undefined ? '' : ` template ${options.template}`;
    if (template !== '' && backend !== 'postgresql') {
      throw new Error('a template database is a PostgreSQL feature');
    }
    await sql.raw(`create database ${name}${template}`).execute(admin.kysely);
  } finally {
    await admin.close();
  }
  return {
    url: withDatabase(SERVER_URLS[backend], name),
    drop: async () => {
      const again = await openDatabase(SERVER_URLS[backend], { poolSize: 1 });
      try {
        const force = backend === 'postgresql' ? ' with (force)' : '';
        await sql.raw(`drop database if exists ${name}${force}`).execute(again.kysely);
      } finally {
        await again.close();
      }
    },
  };
}

/** Whether a backend's server answers; under CI=true an unreachable one is an error. */
export async function backendAvailable(backend: Backend): Promise<string | undefined> {
  if (backend === 'sqlite') return undefined;
  try {
    const db = await openDatabase(SERVER_URLS[backend], { poolSize: 1, connectTimeoutMs: 3_000 });
    await db.close();
    return undefined;
  } catch (error) {
    const reason = `${backend} unavailable: ${error instanceof Error ? error.message : String(error)}`;
    if (inCi) throw new Error(`${reason} (CI=true: every backend must be tested)`);
    return reason;
  }
}

export interface BackendContext {
  readonly backend: Backend;
  /** URL of this suite's own database. */
  url(): string;
  /** An open handle on it, shared by the suite. */
  db(): Database;
}

/**
 * Declares `describe(<backend>)` for each backend, with a scratch database
 * created before and dropped after the suite.
 */
export function forEachBackend(title: string, body: (ctx: BackendContext) => void): void {
  for (const backend of BACKENDS) {
    describe(`${title} [${backend}]`, async () => {
      const unavailable = await backendAvailable(backend);
      if (unavailable !== undefined) {
        describe(unavailable, { skip: unavailable }, () => {});
        return;
      }
      let scratch: { url: string; drop: () => Promise<void> } | undefined;
      let handle: Database | undefined;
      before(async () => {
        scratch = await createScratchDatabase(backend);
        handle = await openDatabase(scratch.url);
      });
      after(async () => {
        await handle?.close();
        await scratch?.drop();
      });
      body({
        backend,
        url: () => {
          if (!scratch) throw new Error('scratch database not created yet');
          return scratch.url;
        },
        db: () => {
          if (!handle) throw new Error('database not open yet');
          return handle;
        },
      });
    });
  }
}
