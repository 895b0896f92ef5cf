/**
 * One URL selects the backend: `sqlite:<path>` (the embedded default),
 * `postgresql://user:pass@host:port/db`, `mysql://user:pass@host:port/db`
 * (MariaDB or MySQL). Parsing is pure; nothing is opened here.
 */
import { isAbsolute, join, resolve } from 'node:path';

export type Backend = 'sqlite' | 'postgresql' | 'mysql';

export interface DatabaseUrl {
  readonly backend: Backend;
  /** The URL as given. */
  readonly url: string;
  /** The URL with any password replaced by `***`: safe for messages and logs. */
  readonly redacted: string;
  /** SQLite only: the file path (absolute), or `:memory:`. */
  readonly path?: string;
}

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

export function parseDatabaseUrl(url: string, baseDir = process.cwd()): DatabaseUrl {
  const redacted = redactUrl(url);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'sqlite') {
    let path = url.slice('sqlite:'.length);
    // Accept sqlite:///abs/path and sqlite://rel as well as sqlite:path.
    if (path.startsWith('//')) path = path.slice(2);
    if (path === '')
      throw new DatabaseUrlError(`database URL '${redacted}' has no file path (sqlite:<path>)`);
    const full = path === ':memory:' ? path : isAbsolute(path) ? path : resolve(baseDir, path);
    return { backend: 'sqlite', url, redacted, path: full };
  }
  if (
    scheme === 'postgresql' ||
    scheme === 'postgres' ||
    scheme === 'mysql' ||
    scheme === 'mariadb'
  ) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new DatabaseUrlError(`database URL '${redacted}' is not a valid URL`);
    }
    if (parsed.hostname === '')
      throw new DatabaseUrlError(`database URL '${redacted}' has no host`);
    if (parsed.pathname.length <= 1)
      throw new DatabaseUrlError(`database URL '${redacted}' names no database (…/<name>)`);
    const backend: Backend = scheme.startsWith('postgres') ? 'postgresql' : 'mysql';
    return { backend, url, redacted };
  }
  throw new DatabaseUrlError(
    `database URL '${redacted}' has an unsupported scheme; use sqlite:<path>, postgresql://… or mysql://…`,
  );
}
