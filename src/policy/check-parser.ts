/**
 * Parses oslo.policy check strings: `@`, `!`, `kind:match` checks (`role:`, `rule:`, and
 * generic `key:match` against credentials), `and` / `or` / `not` and parentheses, `and`
 * binding tighter than `or`. An empty string allows everything, as in oslo.policy. Also the
 * legacy list form (a list of lists: OR of ANDs). Pure; a string oslo.policy would not
 * understand is an error here rather than a silent deny.
 */
import type { Check } from './checks.ts';

/** A rule's text that oslo.policy's language cannot parse. */
export class PolicySyntaxError extends Error {
  override name = 'PolicySyntaxError';
}

type Token =
  | { readonly type: '(' | ')' | 'and' | 'or' | 'not' }
  | { readonly type: 'check'; readonly check: Check };

/** One `kind:match` (or `@` / `!`) term. */
export function parseCheckTerm(term: string, whole: string = term): Check {
  if (term === '@') return { kind: 'true' };
  if (term === '!') return { kind: 'false' };
  const colon = term.indexOf(':');
  if (colon === -1) {
    throw new PolicySyntaxError(`'${term}' in '${whole}' is not a check (expected kind:match)`);
  }
  const kind = term.slice(0, colon);
  const match = term.slice(colon + 1);
  if (kind === 'rule') return { kind: 'rule', name: match };
  if (kind === 'role') return { kind: 'role', match };
  if (kind === 'http' || kind === 'https') {
    throw new PolicySyntaxError(`remote '${kind}:' checks are not supported (in '${whole}')`);
  }
  return { kind: 'generic', key: kind, match };
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const word of text.split(/\s+/)) {
    if (word === '') continue;
    let start = 0;
    while (start < word.length && word[start] === '(') {
      tokens.push({ type: '(' });
      start += 1;
    }
    let end = word.length;
    while (end > start && word[end - 1] === ')') end -= 1;
    const core = word.slice(start, end);
    if (core !== '') {
      const lowered = core.toLowerCase();
      if (lowered === 'and' || lowered === 'or' || lowered === 'not') {
        tokens.push({ type: lowered });
      } else if (
        core.length >= 2 &&
        (core[0] === '"' || core[0] === "'") &&
        core.at(-1) === core[0]
      ) {
        throw new PolicySyntaxError(`quoted strings are not supported (in '${text}')`);
      } else {
        tokens.push({ type: 'check', check: parseCheckTerm(core, text) });
      }
    }
    for (let i = end; i < word.length; i += 1) tokens.push({ type: ')' });
  }
  return tokens;
}

/** The single check of a one-element list, else undefined. */
function only(checks: readonly Check[]): Check | undefined {
  return checks.length === 1 ? checks[0] : undefined;
}

class Parser {
  readonly #tokens: Token[];
  readonly #text: string;
  #position = 0;

  constructor(tokens: Token[], text: string) {
    this.#tokens = tokens;
    this.#text = text;
  }

  parse(): Check {
    const check = this.#or();
    const extra = this.#tokens[this.#position];
    if (extra !== undefined) this.#fail(`unexpected '${this.#describe(extra)}'`);
    return check;
  }

  #fail(reason: string): never {
    throw new PolicySyntaxError(`cannot parse '${this.#text}': ${reason}`);
  }

  #describe(token: Token): string {
    return token.type === 'check' ? 'check' : token.type;
  }

  #peek(): Token | undefined {
    return this.#tokens[this.#position];
  }

  #or(): Check {
    const checks = [this.#and()];
    while (this.#peek()?.type === 'or') {
      this.#position += 1;
      checks.push(this.#and());
    }
    return only(checks) ?? { kind: 'or', checks };
  }

  #and(): Check {
    const checks = [this.#unary()];
    while (this.#peek()?.type === 'and') {
      this.#position += 1;
      checks.push(this.#unary());
    }
    return only(checks) ?? { kind: 'and', checks };
  }

  #unary(): Check {
    const token = this.#peek();
    if (token === undefined) this.#fail('it ends where a check was expected');
    this.#position += 1;
    if (token.type === 'not') return { kind: 'not', check: this.#unary() };
    if (token.type === '(') {
      const inner = this.#or();
      if (this.#peek()?.type !== ')') this.#fail("a '(' is not closed");
      this.#position += 1;
      return inner;
    }
    if (token.type === 'check') return token.check;
    return this.#fail(`unexpected '${this.#describe(token)}' where a check was expected`);
  }
}

/** A check string (or the legacy list form) as a check tree. */
export function parseRule(rule: unknown): Check {
  if (typeof rule === 'string') {
    if (rule.trim() === '') return { kind: 'true' };
    return new Parser(tokenize(rule), rule).parse();
  }
  if (Array.isArray(rule)) {
    if (rule.length === 0) return { kind: 'true' };
    // Empty inner lists are skipped; nothing left denies.
    const nonEmpty = rule.filter((inner) => !(Array.isArray(inner) && inner.length === 0));
    if (nonEmpty.length === 0) return { kind: 'false' };
    const alternatives = nonEmpty.map((inner): Check => {
      const terms = Array.isArray(inner) ? inner : [inner];
      if (!terms.every((term) => typeof term === 'string')) {
        throw new PolicySyntaxError(`a list rule holds only strings: ${JSON.stringify(rule)}`);
      }
      const checks = terms.map((term) => parseCheckTerm(term));
      return only(checks) ?? { kind: 'and', checks };
    });
    return only(alternatives) ?? { kind: 'or', checks: alternatives };
  }
  throw new PolicySyntaxError(`a rule is a check string, not ${JSON.stringify(rule)}`);
}
