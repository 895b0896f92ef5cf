/** Where the embedded database lives by default (light: `--help` shows it without loading drivers). */
import { join } from 'node:path';
import { defaultDatabaseUrl } from '../db/database-url.ts';

/** The embedded default database: `$BATON_DATA_DIR/baton.sqlite`, else `./data/baton.sqlite`. */
export function defaultDbUrl(): string {
  return defaultDatabaseUrl(process.env.BATON_DATA_DIR ?? join(process.cwd(), 'data'));
}
