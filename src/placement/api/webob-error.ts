/**
 * Error answers as the real service's WebOb renders them (pure). The body is built from a
 * template (a generic explanation of the status, a blank line, the specific message; 405, 406
 * and 415 have templates of their own that quote the request) and then shaped by what the
 * client accepts: JSON through a formatter, HTML, or plain text when neither is acceptable.
 */
import { acceptableOffers } from './accept.ts';

/** Reason phrases, as in every error's `title` and status line. */
const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const CLIENT_ERROR =
  'The server could not comply with the request since it is either malformed or otherwise incorrect.';

/** WebOb's generic sentence per status (its line breaks already folded, as WebOb folds them). */
const EXPLANATIONS: Readonly<Record<number, string>> = {
  400: CLIENT_ERROR,
  401: 'This server could not verify that you are authorized to access the document you requested. Either you supplied the wrong credentials (e.g., bad password), or your browser does not understand how to supply the credentials required.',
  403: 'Access was denied to this resource.',
  404: 'The resource could not be found.',
  405: CLIENT_ERROR,
  406: CLIENT_ERROR,
  408: 'The server has waited too long for the request to be sent by the client.',
  409: 'There was a conflict when trying to complete your request.',
  413: 'The body of your request was too large for this server.',
  415: CLIENT_ERROR,
  431: 'The request header fields were too large',
  500: 'The server has either erred or is incapable of performing the requested operation.',
  503: 'The server is currently unavailable. Please try again at a later time.',
};

export function titleOf(status: number): string {
  return TITLES[status] ?? 'Error';
}

/** What of the request the templates quote (as the real service's WSGI environ has it). */
export interface RequestFacts {
  readonly method: string;
  /** The Accept header as the handlers see it (see effectiveAccept). */
  readonly accept: string;
  /** The Content-Type header, `None` when the request had none. */
  readonly contentType: string;
}

/** The body template of a status, with `{detail}` and request facts still to fill. */
function template(status: number, facts: RequestFacts, quote: (s: string) => string): string {
  switch (status) {
    case 405:
      return `The method ${quote(facts.method)} is not allowed for this resource. <br /><br />\n{detail}`;
    case 406:
      return `The resource could not be generated that was acceptable to your browser\n(content of type ${quote(facts.accept)}. <br /><br />\n{detail}`;
    case 415:
      return `The request media type ${quote(facts.contentType)} is not supported by this server.\n<br /><br />\n{detail}`;
    default:
      return `${quote(EXPLANATIONS[status] ?? '')}<br /><br />\n{detail}\n\n`;
  }
}

function fill(status: number, facts: RequestFacts, detail: string, quote: (s: string) => string) {
  return template(status, facts, quote).replace('{detail}', () => quote(detail));
}

const asIs = (s: string) => s;

function htmlEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += '&#x27;';
    else if (code > 0x7f) out += `&#${code};`;
    else out += ch;
  }
  return out;
}

/** WebOb's strip_tags: line breaks become spaces, `<br>` a line break, other tags vanish. */
export function stripTags(value: string): string {
  return value
    .replace(/\n/g, ' ')
    .replace(/\r/g, '')
    .replace(/<br.*?>/gis, '\n')
    .replace(/<!--|-->/g, '')
    .replace(/<.*?>/gs, '');
}

/** The body text the JSON formatters receive: the filled template, tags stripped or not. */
export function webobDetail(status: number, message: string, facts: RequestFacts): string {
  return stripTags(fill(status, facts, message, asIs));
}

/** How a JSON answer is shaped: Placement's API-SIG errors, or WebOb's own default. */
export type JsonFormatter = (status: number, title: string, bodyText: string) => unknown;

/** WebOb's default JSON formatter (used by the auth layer, which has no Placement formatter). */
export const webobDefaultJson: JsonFormatter = (status, title, bodyText) => ({
  message: bodyText,
  code: `${status} ${title}`,
  title,
});

export interface RenderedError {
  readonly contentType: string;
  readonly body: string;
}

/**
 * The error's answer for the request's Accept. `placementJson` receives the stripped detail;
 * `webobDefaultJson` (when `json` is it) receives the raw filled template, as WebOb does.
 */
export function renderWebobError(
  status: number,
  message: string,
  facts: RequestFacts,
  json: { readonly format: JsonFormatter; readonly stripped: boolean },
): RenderedError {
  const title = titleOf(status);
  const statusLine = `${status} ${title}`;
  const match = acceptableOffers(facts.accept, ['text/html', 'application/json'])[0];
  if (match === 'application/json') {
    const raw = fill(status, facts, message, asIs);
    const text = json.stripped ? stripTags(raw) : raw;
    return {
      contentType: 'application/json',
      body: pythonJsonDumps(json.format(status, title, text)),
    };
  }
  if (match === 'text/html') {
    const body = fill(status, facts, message, htmlEscape);
    return {
      contentType: 'text/html; charset=UTF-8',
      body: `<html>\n <head>\n  <title>${statusLine}</title>\n </head>\n <body>\n  <h1>${statusLine}</h1>\n  ${body}\n </body>\n</html>`,
    };
  }
  const body = stripTags(fill(status, facts, message, asIs));
  return { contentType: 'text/plain; charset=UTF-8', body: `${statusLine}\n\n${body}` };
}

/** Python's json.dumps layout (`", "` and `": "`, non-ASCII escaped), as the real bodies are. */
export function pythonJsonDumps(value: unknown): string {
  const compact = JSON.stringify(value);
  let out = '';
  let inString = false;
  for (let i = 0; i < compact.length; i++) {
    const ch = compact[i] as string;
    if (inString) {
      if (ch === '\\') {
        out += ch + (compact[i + 1] as string);
        i++;
        continue;
      }
      if (ch === '"') inString = false;
      const code = ch.charCodeAt(0);
      out += code > 0x7e ? `\\u${code.toString(16).padStart(4, '0')}` : ch;
      continue;
    }
    if (ch === '"') inString = true;
    out += ch === ',' ? ', ' : ch === ':' ? ': ' : ch;
  }
  return out;
}
