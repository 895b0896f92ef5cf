/**
 * `Accept` negotiation as the real service's WebOb does it (RFC 7231 rules): an invalid or
 * absent header accepts every offer; otherwise each offer takes the quality of the most
 * specific range matching it, offers of quality 0 drop out, and the rest are ordered by
 * quality, ties kept in the order offered. Pure.
 */

const TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";
const OWS = '[ \\t]*';
const QUOTED =
  '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*"';
const QVALUE = '(?:0(?:\\.[0-9]{0,3})?)|(?:1(?:\\.0{0,3})?)';
const PARAMETER = `${TOKEN}=(?:(?:${TOKEN})|(?:${QUOTED}))`;
const MEDIA_RANGE = `(${TOKEN}/${TOKEN})((?:${OWS};${OWS}(?![qQ]=)${PARAMETER})*)`;
const ACCEPT_EXT = `${OWS};${OWS}${TOKEN}(?:=(?:(?:${TOKEN})|(?:${QUOTED})))?`;
const ELEMENT = `${MEDIA_RANGE}(?:${OWS};${OWS}[qQ]=(${QVALUE})((?:${ACCEPT_EXT})*))?`;
const VALID = new RegExp(`^(?:(?:,|(?:${ELEMENT}))(?:${OWS},(?:${OWS}${ELEMENT})?)*)?$`);
const ELEMENTS = new RegExp(ELEMENT, 'g');
const PARAMS = new RegExp(`${OWS};${OWS}(${TOKEN})=(${TOKEN}|${QUOTED})`, 'g');

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly params: string;
  readonly q: number;
}

function unquote(value: string): string {
  return value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}

function paramsKey(segment: string): string {
  return [...segment.matchAll(PARAMS)]
    .map((m) => `${(m[1] as string).toLowerCase()}=${unquote(m[2] as string)}`)
    .join(';');
}

/** The ranges of a valid header, or undefined when the header is not valid `Accept` syntax. */
function parseAccept(header: string): MediaRange[] | undefined {
  if (!VALID.test(header)) return undefined;
  const ranges: MediaRange[] = [];
  for (const m of header.matchAll(ELEMENTS)) {
    const [type = '', subtype = ''] = (m[1] as string).toLowerCase().split('/');
    ranges.push({ type, subtype, params: paramsKey(m[2] ?? ''), q: m[3] ? Number(m[3]) : 1 });
  }
  return ranges;
}

/** Whether the header is present and valid (WebOb's truth value of `request.accept`). */
export function acceptIsValid(header: string | undefined): boolean {
  return header !== undefined && parseAccept(header) !== undefined;
}

/** The offers (plain `type/subtype` media types) the header accepts, best first. */
export function acceptableOffers(header: string | undefined, offers: readonly string[]): string[] {
  const ranges = header === undefined ? undefined : parseAccept(header);
  if (ranges === undefined) return [...offers];
  const found: { offer: string; q: number; index: number }[] = [];
  offers.forEach((offer, index) => {
    const [type, subtype] = offer.toLowerCase().split('/');
    let best: { q: number; specificity: number } | undefined;
    for (const range of ranges) {
      let specificity: number;
      if (range.type === type && range.subtype === subtype) {
        // An offer without parameters matches a range with parameters only when they agree.
        if (range.params !== '') continue;
        specificity = 3;
      } else if (range.subtype === '*' && range.type === type) specificity = 2;
      else if (range.type === '*' && range.subtype === '*') specificity = 1;
      else continue;
      if (best === undefined || specificity > best.specificity) best = { q: range.q, specificity };
    }
    if (best !== undefined && best.q !== 0) found.push({ offer, q: best.q, index });
  });
  found.sort((a, b) => b.q - a.q || a.index - b.index);
  return found.map((f) => f.offer);
}

/**
 * The Accept the real service's handlers see: its request-log middleware turns a missing,
 * empty or bare `*\/*` header into `application/json`, so such errors are answered in JSON.
 */
export function effectiveAccept(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header.join(', ') : header;
  return !value || value === '*/*' ? 'application/json' : value;
}
