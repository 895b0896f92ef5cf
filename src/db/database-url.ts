/**
 * One URL selects the backend. Baton's short forms (`sqlite:<path>`, `postgresql://…`,
 * `mysql://…`) and the forms real OpenStack configs carry, as SQLAlchemy reads them, are all
 * accepted: a driver suffix (`mysql+pymysql://`, `postgresql+psycopg2://`) names a Python
 * driver and only the backend matters here; `sqlite:///relative/path`,
 * `sqlite:////absolute/path` and `sqlite://` (in memory) mean what they mean to SQLAlchemy.
 * Parsing is pure; nothing is opened here.
 */
import { isAbsolute, join, resolve } from 'node:path';

/** The database servers the toolkit supports. */
export type Backend = 'sqlite' | 'postgresql' | 'mysql';

/** What the MySQL driver is given (mysql2's own options, read from the URL). */
export interface MysqlTarget {
  readonly host?: string;
  readonly port?: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
  readonly charset?: string;
  readonly socketPath?: string;
}

/** A database URL, parsed: the backend and where the database is. */
export interface DatabaseUrl {
  readonly backend: Backend;
  /** The URL as given. */
  readonly url: string;
  /** The URL with any password replaced by `***`: safe for messages and logs. */
  readonly redacted: string;
  /** SQLite only: the file path (absolute), or `:memory:`. */
  readonly path?: string;
  /** PostgreSQL only: the URL for the driver, without the Python driver suffix. */
  readonly connectionString?: string;
  /** MySQL/MariaDB only: the driver's connection options. */
  readonly mysql?: MysqlTarget;
}

/** A database URL that cannot be used: malformed, or of an unsupported scheme. */
export class DatabaseUrlError extends Error {
  override name = 'DatabaseUrlError';
}

/** Hides the password of a URL (also in URLs that do not parse). */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}

/** The default embedded database: a SQLite file under the data directory. */
export function defaultDatabaseUrl(dataDir: string): string {
  return `sqlite:${join(dataDir, 'baton.sqlite')}`;
}

const FORMS =
  'sqlite:<path>, sqlite:///<relative path>, sqlite:////<absolute path>, postgresql[+driver]://… or mysql[+driver]://…';

/** MySQL URL options oslo.db configs carry that mean something to the Node driver. */
const MYSQL_OPTIONS = ['charset', 'unix_socket'];

function sqlitePath(url: string, redacted: string, baseDir: string): string {
  let path = url.slice('sqlite:'.length);
  if (path.startsWith('//')) {
    // SQLAlchemy's form: sqlite://<host>/<path>, where the host must be empty.
    const rest = path.slice(2);
    if (rest === '') return ':memory:';
    if (!rest.startsWith('/')) {
      throw new DatabaseUrlError(
        `database URL '${redacted}' names a host; SQLite URLs are sqlite:///<relative path> or sqlite:////<absolute path>`,
      );
    }
    path = rest.slice(1);
  }
  if (path === '') {
    throw new DatabaseUrlError(`database URL '${redacted}' has no file path (sqlite:<path>)`);
  }
  return path === ':memory:' ? path : isAbsolute(path) ? path : resolve(baseDir, path);
}

/** A server URL as the WHATWG parser reads it; an empty host (a socket in the query) is kept empty. */
function serverUrl(driverUrl: string, redacted: string): { parsed: URL; host: string } {
  // `user@/db` has no host: the parser refuses credentials without one, so lend it one.
  const emptyHost = /^[^:]+:\/\/(?:[^/?#@]*@)?(?=[/?#]|$)/.test(driverUrl);
  let parsed: URL;
  try {
    parsed = new URL(
      emptyHost ? driverUrl.replace(/^([^:]+:\/\/[^/?#]*)/, '$1placeholder') : driverUrl,
    );
  } catch {
    throw new DatabaseUrlError(`database URL '${redacted}' is not a valid URL`);
  }
  if (parsed.pathname.length <= 1)
    throw new DatabaseUrlError(`database URL '${redacted}' names no database (…/<name>)`);
  return { parsed, host: emptyHost ? '' : parsed.hostname };
}

function mysqlTarget(parsed: URL, host: string, redacted: string): MysqlTarget {
  for (const key of parsed.searchParams.keys()) {
    if (!MYSQL_OPTIONS.includes(key)) {
      throw new DatabaseUrlError(
        `database URL '${redacted}': option '${key}' is not supported (supported: ${MYSQL_OPTIONS.join(', ')})`,
      );
    }
  }
  const socketPath = parsed.searchParams.get('unix_socket') ?? undefined;
  if (host === '' && socketPath === undefined)
    throw new DatabaseUrlError(`database URL '${redacted}' has no host (nor ?unix_socket=)`);
  const charset = parsed.searchParams.get('charset') ?? undefined;
  return {
    ...(host === '' ? {} : { host: decodeURIComponent(host) }),
    ...(parsed.port === '' ? {} : { port: Number(parsed.port) }),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.slice(1)),
    ...(charset === undefined ? {} : { charset }),
    ...(socketPath === undefined ? {} : { socketPath }),
  };
}

/**
 * Parses a database URL (`sqlite:PATH`, `postgresql://…`, `mysql+pymysql://…`); a relative SQLite
 * path is taken from `baseDir`.
 */
export function parseDatabaseUrl(url: string, baseDir = process.cwd()): DatabaseUrl {
  const redacted = redactUrl(url);
  const match = /^([a-z][a-z0-9]*)(?:\+[a-z0-9_]+)?:/i.exec(url);
  const scheme = match?.[1]?.toLowerCase();
  if (scheme === 'sqlite') {
    return { backend: 'sqlite', url, redacted, path: sqlitePath(url, redacted, baseDir) };
  }
  if (scheme === 'postgresql' || scheme === 'postgres') {
    // The driver suffix goes: `postgresql+psycopg2://` is `postgresql://` to the Node driver.
    const connectionString = url.replace(/^[^:]+:/, 'postgresql:');
    const { parsed, host } = serverUrl(connectionString, redacted);
    // libpq's form: a socket directory in ?host= instead of a host name.
    if (host === '' && !parsed.searchParams.has('host'))
      throw new DatabaseUrlError(`database URL '${redacted}' has no host (nor ?host=)`);
    return { backend: 'postgresql', url, redacted, connectionString };
  }
  if (scheme === 'mysql' || scheme === 'mariadb') {
    const { parsed, host } = serverUrl(url.replace(/^[^:]+:/, 'mysql:'), redacted);
    return { backend: 'mysql', url, redacted, mysql: mysqlTarget(parsed, host, redacted) };
  }
  throw new DatabaseUrlError(`database URL '${redacted}' has an unsupported scheme; use ${FORMS}`);
}
