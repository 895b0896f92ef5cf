/**
 * Starts the real OpenStack Placement (Debian's python3-placement 8.0.0) under uWSGI, for
 * benchmarks and conformance comparisons run in the same session as Baton's server. Nothing
 * of it is part of Baton: it is installed on the machine, outside the repository, with
 *
 *   apt-get install python3-placement uwsgi-core uwsgi-plugin-python3 python3-psycopg2 python3-pymysql
 *
 * It runs in noauth2 mode (as Baton's server does by default; `config` may set keystone) on a
 * scratch database of its own (PostgreSQL or MariaDB; the real service has no SQLite mode
 * worth measuring), with `processes` uWSGI workers of one thread each.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/index.ts';

const run = promisify(execFile);

const PACKAGE_DIR = '/usr/lib/python3/dist-packages/placement';
const UWSGI = '/usr/bin/uwsgi';
const MANAGE = '/usr/bin/placement-manage';
export const REAL_PLACEMENT_INSTALL =
  'apt-get install python3-placement uwsgi-core uwsgi-plugin-python3 python3-psycopg2 python3-pymysql';

export interface RealPlacement {
  readonly url: string;
  readonly stop: () => Promise<void>;
}

/** Why the real service cannot be started here, or undefined when it can. */
export function realPlacementMissing(): string | undefined {
  for (const path of [PACKAGE_DIR, UWSGI, MANAGE]) {
    if (!existsSync(path)) return `${path} is missing (install: ${REAL_PLACEMENT_INSTALL})`;
  }
  return undefined;
}

/** SQLAlchemy's spelling of one of our database URLs. */
function sqlalchemyUrl(dbUrl: string): string {
  const url = new URL(dbUrl);
  if (url.protocol === 'postgresql:' || url.protocol === 'postgres:') {
    return `postgresql+psycopg2://${url.username || 'postgres'}${url.password ? `:${url.password}` : ''}@${url.hostname}:${url.port || 5432}${url.pathname}`;
  }
  if (url.protocol === 'mysql:') {
    return `mysql+pymysql://${url.username || 'root'}${url.password ? `:${url.password}` : ''}@${url.hostname}:${url.port || 3306}${url.pathname}`;
  }
  throw new Error(`the real Placement runs on PostgreSQL or MariaDB, not ${url.protocol}`);
}

/**
 * Syncs the schema of `dbUrl` (an empty scratch database) and starts the real service on
 * 127.0.0.1:`port`. Resolves once `GET /` answers.
 */
export interface RealPlacementOptions {
  readonly processes?: number;
  /**
   * Traits to store with these ids before the service first starts. It numbers the standard
   * traits it adds in Python's set order of their names, which changes with every process
   * start, and lists a provider's traits in an order their ids decide on PostgreSQL
   * (docs/placement.md); given Baton's ids, the two can be compared.
   */
  readonly traits?: readonly { readonly id: number; readonly name: string }[];
  /**
   * More options, by section, over the defaults (`{api: {auth_strategy: 'keystone'},
   * keystone_authtoken: {...}}` runs it behind keystonemiddleware).
   */
  readonly config?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The database holds the schema already (a copy of one `syncRealPlacementSchema` made). */
  readonly schemaSynced?: boolean;
}

/** Stores the traits with their ids, and moves the id sequence past them. */
async function storeTraits(dbUrl: string, traits: RealPlacementOptions['traits']): Promise<void> {
  if (traits === undefined || traits.length === 0) return;
  const db = await openDatabase(dbUrl, { poolSize: 1 });
  try {
    const now = new Date();
    const rows = traits.map((t) => sql`(${t.id}, ${t.name}, ${now})`);
    await sql`insert into traits (id, name, created_at) values ${sql.join(rows)}`.execute(
      db.kysely,
    );
    if (new URL(dbUrl).protocol.startsWith('postgres')) {
      await sql`select setval(pg_get_serial_sequence('traits', 'id'), (select max(id) from traits))`.execute(
        db.kysely,
      );
    }
  } finally {
    await db.close();
  }
}

/**
 * The real service's schema into `dbUrl` (`placement-manage db sync`), nothing else: a
 * template that scratch databases can copy, which is quicker than a sync each.
 */
export async function syncRealPlacementSchema(dbUrl: string): Promise<void> {
  const missing = realPlacementMissing();
  if (missing) throw new Error(`cannot sync the real Placement's schema: ${missing}`);
  const dir = await mkdtemp(join(tmpdir(), 'real-placement-sync-'));
  try {
    const conf = join(dir, 'placement.conf');
    await writeFile(conf, `[placement_database]\nconnection = ${sqlalchemyUrl(dbUrl)}\n`);
    await run(MANAGE, ['--config-file', conf, 'db', 'sync'], {
      env: { ...process.env, OS_PLACEMENT_CONFIG_DIR: dir },
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function startRealPlacement(
  dbUrl: string,
  port: number,
  options: RealPlacementOptions = {},
): Promise<RealPlacement> {
  const missing = realPlacementMissing();
  if (missing) throw new Error(`cannot start the real Placement: ${missing}`);
  const dir = await mkdtemp(join(tmpdir(), 'real-placement-'));
  const conf = join(dir, 'placement.conf');
  const sections: Record<string, Record<string, string>> = {
    DEFAULT: { debug: 'false' },
    api: { auth_strategy: 'noauth2' },
    placement_database: { connection: sqlalchemyUrl(dbUrl) },
  };
  for (const [section, values] of Object.entries(options.config ?? {})) {
    sections[section] = { ...sections[section], ...values };
  }
  await writeFile(
    conf,
    Object.entries(sections)
      .flatMap(([section, values]) => [
        `[${section}]`,
        ...Object.entries(values).map(([key, value]) => `${key} = ${value}`),
      ])
      .concat('')
      .join('\n'),
  );
  await writeFile(
    join(dir, 'app.py'),
    'from placement.wsgi import init_application\napplication = init_application()\n',
  );
  const env = { ...process.env, OS_PLACEMENT_CONFIG_DIR: dir };
  if (options.schemaSynced !== true)
    await run(MANAGE, ['--config-file', conf, 'db', 'sync'], { env });
  await storeTraits(dbUrl, options.traits);
  const child: ChildProcess = spawn(
    UWSGI,
    [
      '--plugin',
      'python3',
      '--http11-socket',
      `127.0.0.1:${port}`,
      '--wsgi-file',
      join(dir, 'app.py'),
      '--master',
      '--processes',
      String(options.processes ?? 2),
      '--threads',
      '1',
      '--die-on-term',
      '--disable-logging',
      '--logto',
      join(dir, 'uwsgi.log'),
    ],
    { env, stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the real Placement exited with ${child.exitCode} (log: ${dir}/uwsgi.log)`);
    }
    try {
      if ((await fetch(`${url}/`)).status === 200) return { url, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error('the real Placement did not answer within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
