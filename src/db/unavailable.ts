/**
 * Recognises a database that cannot answer for now (stopped, restarting, unreachable, its
 * connection cut) from any of the drivers, so a service can answer "retry later" (503)
 * instead of a 500, and a writer can try again once it is back.
 */

/** PostgreSQL SQLSTATEs of a server going away or not yet accepting (class 08: connection). */
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket errors of a server that is not there (any driver). */
const SOCKET_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** mysql2's codes of a lost or refused connection. */
const MYSQL_UNAVAILABLE = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'ER_SERVER_SHUTDOWN',
  'ER_CON_COUNT_ERROR',
  'PROTOCOL_SEQUENCE_TIMEOUT',
]);
/** node-postgres and mysql2 say these in words only (no code). */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Connection ended unexpectedly',
  // mysql2: a held connection the server closed (KILL, restart) takes no new query.
  "Can't add new command when connection is in closed state",
];

function unavailableHere(error: object): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (PG_UNAVAILABLE.has(code) || code.startsWith('08')) return true;
    if (SOCKET_UNAVAILABLE.has(code) || MYSQL_UNAVAILABLE.has(code)) return true;
  }
  return typeof message === 'string' && DRIVER_MESSAGES.some((words) => message.includes(words));
}

/** True when `error` (or an error it wraps) says the database server cannot be reached now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    if (unavailableHere(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
