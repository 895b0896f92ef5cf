/**
 * JSON read as Python's `json.loads` reads it (pure), for bodies JSON.parse refuses: the real
 * service puts Python's message in its 400 (`Expecting ',' delimiter: line 1 column 7
 * (char 6)`), and it takes NaN, Infinity and -Infinity, which JSON.parse does not.
 * Positions count code points, as Python's do. pythonJsonNumbers reads a body's numbers as
 * Python types them (int or float), for answers that echo them.
 */
import { pythonLiteral } from './python-number.ts';

export type PythonJsonResult = { readonly value: unknown } | { readonly error: string };

class DecodeError extends Error {
  readonly position: number;
  constructor(message: string, position: number) {
    super(message);
    this.position = position;
  }
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const NUMBER = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/;
const HEX4 = /^[0-9a-fA-F]{4}$/;

class Scanner {
  readonly chars: readonly string[];
  /** Numbers as PythonNumber (their Python type kept) rather than as JS numbers. */
  readonly literals: boolean;
  constructor(text: string, literals = false) {
    this.chars = [...text];
    this.literals = literals;
  }

  skip(pos: number): number {
    let at = pos;
    while (at < this.chars.length && WHITESPACE.has(this.chars[at] as string)) at++;
    return at;
  }

  /** One value starting exactly at `pos`; its value and where it ends. */
  value(pos: number): [unknown, number] {
    const ch = this.chars[pos];
    if (ch === '"') return this.string(pos);
    if (ch === '{') return this.object(pos);
    if (ch === '[') return this.array(pos);
    for (const [word, value] of [
      ['null', null],
      ['true', true],
      ['false', false],
      ['NaN', Number.NaN],
      ['Infinity', Number.POSITIVE_INFINITY],
      ['-Infinity', Number.NEGATIVE_INFINITY],
    ] as const) {
      if (this.chars.slice(pos, pos + word.length).join('') === word) {
        const read = this.literals && typeof value === 'number' ? pythonLiteral(word) : value;
        return [read, pos + word.length];
      }
    }
    const number = NUMBER.exec(this.chars.slice(pos, pos + 400).join(''));
    if (number !== null) {
      const read = this.literals ? pythonLiteral(number[0]) : Number(number[0]);
      return [read, pos + number[0].length];
    }
    throw new DecodeError('Expecting value', pos);
  }

  string(start: number): [string, number] {
    let out = '';
    let at = start + 1;
    for (;;) {
      const ch = this.chars[at];
      if (ch === undefined) throw new DecodeError('Unterminated string starting at', start);
      if (ch === '"') return [out, at + 1];
      if (ch.charCodeAt(0) < 0x20) throw new DecodeError('Invalid control character at', at);
      if (ch !== '\\') {
        out += ch;
        at++;
        continue;
      }
      const escaped = this.chars[at + 1];
      if (escaped === undefined) throw new DecodeError('Unterminated string starting at', start);
      if (escaped === 'u') {
        const hex = this.chars.slice(at + 2, at + 6).join('');
        // Python wants the four digits and at least one character after them.
        if (at + 6 >= this.chars.length || !HEX4.test(hex)) {
          throw new DecodeError('Invalid \\uXXXX escape', at + 1);
        }
        out += String.fromCharCode(Number.parseInt(hex, 16));
        at += 6;
      } else {
        const plain = ESCAPES[escaped];
        if (plain === undefined) throw new DecodeError('Invalid \\escape', at);
        out += plain;
        at += 2;
      }
    }
  }

  object(start: number): [Record<string, unknown>, number] {
    const out: Record<string, unknown> = {};
    let at = this.skip(start + 1);
    if (this.chars[at] === '}') return [out, at + 1];
    for (;;) {
      if (this.chars[at] !== '"') {
        throw new DecodeError('Expecting property name enclosed in double quotes', at);
      }
      const [key, afterKey] = this.string(at);
      at = this.skip(afterKey);
      if (this.chars[at] !== ':') throw new DecodeError("Expecting ':' delimiter", at);
      const [value, afterValue] = this.value(this.skip(at + 1));
      out[key] = value;
      at = this.skip(afterValue);
      if (this.chars[at] === '}') return [out, at + 1];
      if (this.chars[at] !== ',') throw new DecodeError("Expecting ',' delimiter", at);
      at = this.skip(at + 1);
    }
  }

  array(start: number): [unknown[], number] {
    const out: unknown[] = [];
    let at = this.skip(start + 1);
    if (this.chars[at] === ']') return [out, at + 1];
    for (;;) {
      const [value, afterValue] = this.value(at);
      out.push(value);
      at = this.skip(afterValue);
      if (this.chars[at] === ']') return [out, at + 1];
      if (this.chars[at] !== ',') throw new DecodeError("Expecting ',' delimiter", at);
      at = this.skip(at + 1);
    }
  }

  /** Python's `<msg>: line L column C (char P)`. */
  describe(error: DecodeError): string {
    const before = this.chars.slice(0, error.position);
    const line = before.filter((c) => c === '\n').length + 1;
    const column = error.position - before.lastIndexOf('\n');
    return `${error.message}: line ${line} column ${column} (char ${error.position})`;
  }
}

export function parsePythonJson(text: string): PythonJsonResult {
  const scanner = new Scanner(text);
  try {
    if (text.startsWith('\ufeff')) {
      throw new DecodeError('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
    }
    const [value, end] = scanner.value(scanner.skip(0));
    const rest = scanner.skip(end);
    if (rest !== scanner.chars.length) throw new DecodeError('Extra data', rest);
    return { value };
  } catch (error) {
    if (error instanceof DecodeError) return { error: scanner.describe(error) };
    throw error;
  }
}

/**
 * The body's JSON with every number a PythonNumber: how the real service, which echoes the
 * values it was sent, writes them back (`4` stays `4`, `4.0` stays `4.0`, a 30-digit int keeps
 * its digits). Undefined when the text is not JSON.
 */
export function pythonJsonNumbers(text: string): unknown {
  const scanner = new Scanner(text, true);
  try {
    const [value, end] = scanner.value(scanner.skip(0));
    return scanner.skip(end) === scanner.chars.length ? value : undefined;
  } catch (error) {
    if (error instanceof DecodeError) return undefined;
    throw error;
  }
}
