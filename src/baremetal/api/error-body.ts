/**
 * The real Ironic's error bodies: its ParsableErrorMiddleware wraps whatever the application
 * answered in `{"error_message": "<text>"}`, the text being one of two JSON documents dumped by
 * Python: a fault from a handler (`{"faultcode": "Client", "faultstring": …, "debuginfo":
 * null}`, faultcode `Server` from 500 on) or WebOb's HTTP error (`{"code": 404, "title": "Not
 * Found", "description": ""}`). Both are written with Python's json.dumps, byte for byte.
 */
import { boundedMessage } from '../../python-compat/excerpt.ts';
import { pythonJsonDumps } from '../../python-compat/index.ts';

/** WebOb's titles of the statuses the API answers. */
const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function statusTitle(status: number): string {
  return TITLES[status] ?? 'Error';
}

const wrap = (inner: unknown) => pythonJsonDumps({ error_message: pythonJsonDumps(inner) });

/** The body of a fault raised in a handler (method.expose's format_exception). */
export function faultBody(status: number, message: string): string {
  const client = status >= 400 && status < 500;
  // Whatever echoed the input, the answer stays a few kilobytes (docs/security.md).
  const faultstring = boundedMessage(message);
  return wrap({ faultcode: client ? 'Client' : 'Server', faultstring, debuginfo: null });
}

/** The body of a WebOb HTTP error. */
export function webobBody(status: number, description: string): string {
  return wrap({
    code: status,
    title: statusTitle(status),
    description: boundedMessage(description),
  });
}
