/**
 * Starts a real OpenStack Keystone (Debian's `keystone` package, 22.0) under uWSGI on
 * loopback, for the tests of `auth_strategy = keystone`. Nothing of it is part of Baton:
 *
 *   apt-get install keystone python3-keystonemiddleware uwsgi-core uwsgi-plugin-python3 python3-psycopg2
 *
 * Each start gets its own directory (config, fernet and credential keys, logs) and a scratch
 * PostgreSQL database (on SQLite, Keystone's role creation fails with "database is locked"),
 * bootstrapped with `keystone-manage db_sync`, `fernet_setup`, `credential_setup` and
 * `bootstrap` (user `admin`, project `admin`, roles admin/member/reader, the Identity endpoints
 * of region RegionOne), then given, through its API, the people the tests act as (USERS).
 * `stop()` takes Keystone down and `restart()` brings it back (with another token lifetime if
 * asked); `destroy()` removes everything. A test file starts one and shares it.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createScratchDatabase } from '../db/support/backends.ts';

const run = promisify(execFile);

export const REAL_KEYSTONE_INSTALL =
  'apt-get install keystone python3-keystonemiddleware uwsgi-core uwsgi-plugin-python3 python3-psycopg2';
const MANAGE = '/usr/bin/keystone-manage';
const WSGI = '/usr/bin/keystone-wsgi-public';
const UWSGI = '/usr/bin/uwsgi';
const MIDDLEWARE = '/usr/lib/python3/dist-packages/keystonemiddleware/auth_token';

export const ADMIN_PASSWORD = 'admin-secret';
export const PASSWORD = 'secret';

/** Who the tests act as: a name, where their role is, and which role. */
export const USERS = {
  /** The services' own user: role `service` in project `service` (validates tokens). */
  service: { name: 'placement', project: 'service', role: 'service' },
  /** A project member of `demo`. */
  member: { name: 'alice', project: 'demo', role: 'member' },
  /** A project reader of `demo`. */
  reader: { name: 'rita', project: 'demo', role: 'reader' },
  /** A member of another project. */
  other: { name: 'olga', project: 'other', role: 'member' },
  /** A reader of the whole system. */
  systemReader: { name: 'sam', system: true, role: 'reader' },
  /** A member of the domain `Default` (domain-scoped tokens). */
  domainMember: { name: 'dana', domain: 'default', role: 'member' },
} as const;

export type UserKey = keyof typeof USERS | 'admin';

/** How a token is scoped when asked for. */
export type Scope =
  | { readonly system: true }
  | { readonly project: string }
  | { readonly domain: string }
  | undefined;

export interface RealKeystone {
  /** `http://127.0.0.1:PORT` (its root; `/v3` below it). */
  readonly url: string;
  readonly dir: string;
  /** Ids Keystone gave: `projects.demo`, `users.alice`, `roles.member`… */
  readonly ids: {
    readonly projects: Readonly<Record<string, string>>;
    readonly users: Readonly<Record<string, string>>;
    readonly roles: Readonly<Record<string, string>>;
  };
  /** Seconds from nothing to a bootstrapped Keystone with its users (for the report). */
  readonly startSeconds: number;
  /** A new token for a user (by name) and scope. */
  token(user: string, scope: Scope): Promise<string>;
  /** The admin's system-scoped token (cached). */
  adminToken(): Promise<string>;
  /**
   * A token from a new application credential of the user (scoped to the project) restricted
   * to `accessRules` (`{service, method, path}`).
   */
  applicationCredentialToken(
    user: string,
    project: string,
    accessRules: readonly { service: string; method: string; path: string }[],
  ): Promise<string>;
  /** Revokes a token (`DELETE /v3/auth/tokens`). */
  revoke(token: string): Promise<void>;
  /** Takes Keystone down (its port refuses connections until restart). */
  stop(): Promise<void>;
  /** Starts it again on the same port; `expirationSeconds` sets `[token] expiration`. */
  restart(options?: { readonly expirationSeconds?: number }): Promise<void>;
  /** Stops it, drops its database and removes its directory. */
  destroy(): Promise<void>;
}

/** Why Keystone cannot be started here, or undefined when it can. */
export function realKeystoneMissing(): string | undefined {
  for (const path of [MANAGE, WSGI, UWSGI, MIDDLEWARE]) {
    if (!existsSync(path)) return `${path} is missing (install: ${REAL_KEYSTONE_INSTALL})`;
  }
  return undefined;
}

/**
 * Undefined when Keystone can run here; otherwise the reason to skip, except under CI=true,
 * where a Keystone that cannot run is a failure.
 */
export function keystoneSkipReason(): string | undefined {
  const missing = realKeystoneMissing();
  if (missing !== undefined && process.env.CI === 'true') {
    throw new Error(`CI=true: the Keystone tests must run: ${missing}`);
  }
  return missing;
}

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

function sqlalchemyUrl(url: string): string {
  const parsed = new URL(url);
  return `postgresql+psycopg2://${parsed.username || 'postgres'}${parsed.password ? `:${parsed.password}` : ''}@${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
}

function configText(dir: string, database: string, expirationSeconds: number): string {
  return [
    '[DEFAULT]',
    `log_dir = ${dir}`,
    'log_file = keystone.log',
    '[database]',
    `connection = ${sqlalchemyUrl(database)}`,
    '[fernet_tokens]',
    `key_repository = ${join(dir, 'fernet-keys')}`,
    '[credential]',
    `key_repository = ${join(dir, 'credential-keys')}`,
    '[identity]',
    // bcrypt's cheapest cost: every token issued checks a password, and the default (12) costs
    // about a second of CPU on a busy test machine.
    'password_hash_rounds = 4',
    '[token]',
    `expiration = ${expirationSeconds}`,
    '[oslo_policy]',
    // An empty directory of its own: the package's /etc/keystone/policy.d is not ours to read.
    `policy_dirs = ${join(dir, 'policy.d')}`,
    '',
  ].join('\n');
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown> | undefined;
}

async function call(
  url: string,
  method: string,
  token: string | undefined,
  body?: unknown,
  extra: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: {
      ...(token === undefined ? {} : { 'x-auth-token': token }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...extra,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}

function scopeBody(scope: Scope): Record<string, unknown> {
  if (scope === undefined) return {};
  if ('system' in scope) return { scope: { system: { all: true } } };
  if ('domain' in scope) return { scope: { domain: { id: scope.domain } } };
  return { scope: { project: { name: scope.project, domain: { id: 'default' } } } };
}

export async function startRealKeystone(
  options: { readonly expirationSeconds?: number } = {},
): Promise<RealKeystone> {
  const missing = realKeystoneMissing();
  if (missing) throw new Error(`cannot start Keystone: ${missing}`);
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'baton-keystone-'));
  const database = await createScratchDatabase('postgresql');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const conf = join(dir, 'keystone.conf');
  let child: ChildProcess | undefined;

  const writeConfig = (expirationSeconds: number) =>
    writeFile(conf, configText(dir, database.url, expirationSeconds));
  const manage = (...args: string[]) => run(MANAGE, ['--config-file', conf, ...args]);
  const owner = [
    '--keystone-user',
    userInfo().username,
    '--keystone-group',
    String(userInfo().gid),
  ];

  /** The first token a uWSGI worker issues costs seconds; paid here, by both workers. */
  let warmUp = async () => {};
  /** True once Keystone answers and has issued its first tokens; false if it answers but cannot. */
  const launchOnce = async (): Promise<boolean> => {
    child = spawn(
      UWSGI,
      [
        '--plugin',
        'python3',
        '--http11-socket',
        `127.0.0.1:${port}`,
        '--wsgi-file',
        WSGI,
        '--master',
        '--processes',
        '2',
        // Each keep-alive connection holds a thread of uWSGI's http11 socket until it closes or
        // times out (4 s): enough threads for the tests' clients and the services under test.
        '--threads',
        '16',
        '--die-on-term',
        '--disable-logging',
        '--logto',
        join(dir, 'uwsgi.log'),
      ],
      { env: { ...process.env, OS_KEYSTONE_CONFIG_DIR: dir }, stdio: 'ignore' },
    );
    // Generous: uWSGI loading Keystone takes seconds alone and a minute or more beside other suites.
    const deadline = Date.now() + 180_000;
    let answeredAt: number | undefined;
    for (;;) {
      if (child.exitCode !== null) {
        throw new Error(`Keystone exited with ${child.exitCode} (log: ${dir}/uwsgi.log)`);
      }
      try {
        if ((await fetch(`${url}/v3`)).status === 200) {
          answeredAt ??= Date.now();
          await warmUp();
          return true;
        }
      } catch {
        // not listening yet, or its workers cannot issue tokens yet
      }
      // Seen once: a worker stuck on eventlet's "cannot switch to a different thread" answers
      // /v3 but never issues a token; a new uWSGI is the way out.
      if (answeredAt !== undefined && Date.now() - answeredAt > 30_000) return false;
      if (Date.now() > deadline) throw new Error(`Keystone did not answer within 180 s (${dir})`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  };
  const launch = async () => {
    for (let attempt = 1; attempt <= 3; attempt++) {
      if (await launchOnce()) return;
      await stop();
    }
    throw new Error(`Keystone answered but issued no token in 3 launches (log: ${dir}/uwsgi.log)`);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  const destroy = async () => {
    await stop();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  };

  try {
    await writeConfig(options.expirationSeconds ?? 3600);
    await mkdir(join(dir, 'policy.d'));
    // The key repositories do not need the schema: made while db_sync runs.
    await Promise.all([
      manage('db_sync'),
      manage('fernet_setup', ...owner),
      manage('credential_setup', ...owner),
    ]);
    await manage(
      'bootstrap',
      '--bootstrap-password',
      ADMIN_PASSWORD,
      '--bootstrap-admin-url',
      `${url}/v3/`,
      '--bootstrap-internal-url',
      `${url}/v3/`,
      '--bootstrap-public-url',
      `${url}/v3/`,
      '--bootstrap-region-id',
      'RegionOne',
    );
    await launch();
  } catch (error) {
    await destroy();
    throw error;
  }

  const v3 = `${url}/v3`;
  const token = async (user: string, scope: Scope): Promise<string> => {
    const password = user === 'admin' ? ADMIN_PASSWORD : PASSWORD;
    const answer = await call(`${v3}/auth/tokens`, 'POST', undefined, {
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name: user, domain: { id: 'default' }, password } },
        },
        ...scopeBody(scope),
      },
    });
    const subject = answer.headers.get('x-subject-token');
    if (answer.status !== 201 || subject === null) {
      throw new Error(`no token for ${user}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return subject;
  };
  warmUp = async () => {
    await Promise.all([token('admin', { system: true }), token('admin', { system: true })]);
  };
  let admin: string | undefined;
  const adminToken = async () => {
    admin ??= await token('admin', { system: true });
    return admin;
  };

  const ids = {
    projects: {} as Record<string, string>,
    users: {} as Record<string, string>,
    roles: {} as Record<string, string>,
  };
  try {
    const auth = await adminToken();
    const created = async (path: string, key: string, body: unknown): Promise<string> => {
      const answer = await call(`${v3}/${path}`, 'POST', auth, body);
      const id = (answer.body?.[key] as { id?: string } | undefined)?.id;
      if (answer.status !== 201 || id === undefined) {
        throw new Error(`POST /v3/${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
      return id;
    };
    const roles = await call(`${v3}/roles`, 'GET', auth);
    for (const role of (roles.body?.roles ?? []) as { id: string; name: string }[]) {
      ids.roles[role.name] = role.id;
    }
    ids.roles.service = await created('roles', 'role', { role: { name: 'service' } });
    const projects = await call(`${v3}/projects`, 'GET', auth);
    for (const project of (projects.body?.projects ?? []) as { id: string; name: string }[]) {
      ids.projects[project.name] = project.id;
    }
    for (const name of ['service', 'demo', 'other']) {
      ids.projects[name] = await created('projects', 'project', {
        project: { name, domain_id: 'default' },
      });
    }
    for (const user of Object.values(USERS)) {
      const id = await created('users', 'user', {
        user: { name: user.name, domain_id: 'default', password: PASSWORD },
      });
      ids.users[user.name] = id;
      const role = ids.roles[user.role];
      const where =
        'project' in user
          ? `projects/${ids.projects[user.project]}`
          : 'domain' in user
            ? `domains/${user.domain}`
            : 'system';
      const assigned = await call(`${v3}/${where}/users/${id}/roles/${role}`, 'PUT', auth);
      if (assigned.status !== 204)
        throw new Error(`role ${user.role} for ${user.name}: ${assigned.status}`);
    }
  } catch (error) {
    await destroy();
    throw error;
  }

  return {
    url,
    dir,
    ids,
    startSeconds: (performance.now() - started) / 1000,
    token,
    adminToken,
    async applicationCredentialToken(user, project, accessRules) {
      const own = await token(user, { project });
      const created = await call(
        `${v3}/users/${ids.users[user]}/application_credentials`,
        'POST',
        own,
        {
          application_credential: {
            name: `restricted-${Math.random().toString(16).slice(2)}`,
            access_rules: accessRules,
          },
        },
      );
      const credential = created.body?.application_credential as
        | { id: string; secret: string }
        | undefined;
      if (created.status !== 201 || credential === undefined) {
        throw new Error(
          `application credential: ${created.status} ${JSON.stringify(created.body)}`,
        );
      }
      const answer = await call(`${v3}/auth/tokens`, 'POST', undefined, {
        auth: {
          identity: {
            methods: ['application_credential'],
            application_credential: { id: credential.id, secret: credential.secret },
          },
        },
      });
      const subject = answer.headers.get('x-subject-token');
      if (answer.status !== 201 || subject === null) {
        throw new Error(`application credential token: ${answer.status}`);
      }
      return subject;
    },
    async revoke(subject) {
      const answer = await call(`${v3}/auth/tokens`, 'DELETE', await adminToken(), undefined, {
        'x-subject-token': subject,
      });
      if (answer.status !== 204) throw new Error(`revoking a token: ${answer.status}`);
    },
    stop,
    async restart(restartOptions = {}) {
      await stop();
      if (restartOptions.expirationSeconds !== undefined) {
        await writeConfig(restartOptions.expirationSeconds);
      }
      await launch();
    },
    destroy,
  };
}
