/**
 * The text format of a log record, for people reading a terminal or a file: the layout of
 * oslo.log's default (`time pid LEVEL name [request id] message`), then the record's other
 * fields as `key=value`, then an error's stack on the lines below, as oslo prints a
 * traceback. The record is the JSON line pino writes (the json format is that line itself).
 * Pure.
 */

/** Fields shown in the line's head, not again as `key=value`. */
const HEAD_FIELDS = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'binary',
  'worker',
  'request_id',
  'err',
]);

const SAFE_VALUE = /^[\w.:/@+,-]+$/;

function valueText(value: unknown): string {
  if (typeof value === 'string') return SAFE_VALUE.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return String(value);
  }
  return JSON.stringify(value) ?? String(value);
}

/** `2026-11-25 18:55:45.123` (UTC) from pino's ISO time or epoch milliseconds. */
function timeText(time: unknown): string {
  const date = new Date(typeof time === 'number' || typeof time === 'string' ? time : Date.now());
  return Number.isNaN(date.getTime())
    ? String(time)
    : date.toISOString().replace('T', ' ').replace('Z', '');
}

function nameText(record: Record<string, unknown>): string {
  const binary = typeof record.binary === 'string' ? record.binary : 'baton';
  return record.worker === undefined ? binary : `${binary}/worker-${valueText(record.worker)}`;
}

function stackText(err: unknown): string {
  if (err === null || typeof err !== 'object') return '';
  const { stack, message, type } = err as { stack?: unknown; message?: unknown; type?: unknown };
  const text =
    typeof stack === 'string' ? stack : `${String(type ?? 'Error')}: ${String(message ?? '')}`;
  return text
    .split('\n')
    .map((line) => `\n    ${line}`)
    .join('');
}

/** One record as text, ending with a newline (several lines when it carries a stack). */
export function textLogLine(record: Record<string, unknown>): string {
  const level = String(record.level ?? 'info').toUpperCase();
  const requestId = typeof record.request_id === 'string' ? record.request_id : '-';
  let line = `${timeText(record.time)} ${valueText(record.pid ?? '-')} ${level} ${nameText(record)} [${requestId}] ${String(record.msg ?? '')}`;
  for (const key in record) {
    if (HEAD_FIELDS.has(key) || record[key] === undefined) continue;
    line += ` ${key}=${valueText(record[key])}`;
  }
  return `${line}${stackText(record.err)}\n`;
}

/** A JSON log line as text; a line that is not a JSON object is passed through unchanged. */
export function jsonLineAsText(line: string): string {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return line;
  return textLogLine(record as Record<string, unknown>);
}
