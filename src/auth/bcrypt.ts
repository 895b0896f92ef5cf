/**
 * bcrypt (Provos and Mazières' EksBlowfish, OpenBSD's `$2a$`/`$2b$`/`$2y$` hashes), to check the
 * passwords of an Apache htpasswd file as ironic-lib's HTTP basic auth does: Node's crypto has
 * no bcrypt. Pure computation.
 *
 * Blowfish's initial P-array and S-boxes are the first 8,336 hexadecimal digits of pi's
 * fraction; they are computed once, when first needed (Machin's formula on BigInts), rather
 * than written out as a table.
 */
import { timingSafeEqual } from 'node:crypto';

const WORDS = 18 + 4 * 256;

/** The first `WORDS` 32-bit words of pi's fraction: 243f6a88 85a308d3 … */
function piWords(): Uint32Array {
  const guard = 64n;
  const bits = BigInt(WORDS * 32) + guard;
  const one = 1n << bits;
  // arctan(1/x), scaled by `one`.
  const arctanInverse = (x: bigint): bigint => {
    const x2 = x * x;
    let term = one / x;
    let sum = term;
    for (let k = 1n; term !== 0n; k++) {
      term /= x2;
      const part = term / (2n * k + 1n);
      sum = k % 2n === 1n ? sum - part : sum + part;
    }
    return sum;
  };
  const pi = 16n * arctanInverse(5n) - 4n * arctanInverse(239n);
  let fraction = (pi - 3n * one) >> guard;
  const words = new Uint32Array(WORDS);
  for (let i = WORDS - 1; i >= 0; i--) {
    words[i] = Number(fraction & 0xffffffffn);
    fraction >>= 32n;
  }
  return words;
}

let initialState: Uint32Array | undefined;

class Blowfish {
  readonly p: Uint32Array;
  readonly s: Uint32Array;

  constructor() {
    initialState ??= piWords();
    this.p = initialState.slice(0, 18);
    this.s = initialState.slice(18);
  }

  #f(x: number): number {
    const s = this.s;
    const a = s[x >>> 24] as number;
    const b = s[256 + ((x >>> 16) & 0xff)] as number;
    const c = s[512 + ((x >>> 8) & 0xff)] as number;
    const d = s[768 + (x & 0xff)] as number;
    return ((((a + b) | 0) ^ c) + d) | 0;
  }

  /** Enciphers the block in `lr` (two words) in place. */
  encipher(lr: Uint32Array): void {
    const p = this.p;
    let l = lr[0] as number;
    let r = lr[1] as number;
    for (let i = 0; i < 16; i += 2) {
      l ^= p[i] as number;
      r ^= this.#f(l);
      r ^= p[i + 1] as number;
      l ^= this.#f(r);
    }
    l ^= p[16] as number;
    r ^= p[17] as number;
    lr[0] = r;
    lr[1] = l;
  }

  /** Blowfish's key schedule, with bcrypt's salt mixed in (`salt` undefined: plain). */
  expand(key: Uint8Array, salt?: Uint8Array): void {
    const keyStream = wordStream(key);
    for (let i = 0; i < 18; i++) this.p[i] = ((this.p[i] as number) ^ keyStream()) >>> 0;
    const saltStream = salt === undefined ? () => 0 : wordStream(salt);
    const lr = new Uint32Array(2);
    const fill = (table: Uint32Array, length: number) => {
      for (let i = 0; i < length; i += 2) {
        lr[0] = (lr[0] as number) ^ saltStream();
        lr[1] = (lr[1] as number) ^ saltStream();
        this.encipher(lr);
        table[i] = lr[0] as number;
        table[i + 1] = lr[1] as number;
      }
    };
    fill(this.p, 18);
    fill(this.s, 1024);
  }
}

/** Big-endian words read from `bytes` over and over (Blowfish's stream2word). */
function wordStream(bytes: Uint8Array): () => number {
  let at = 0;
  return () => {
    let word = 0;
    for (let i = 0; i < 4; i++) {
      word = ((word << 8) | (bytes[at] as number)) >>> 0;
      at = (at + 1) % bytes.length;
    }
    return word;
  };
}

const ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** bcrypt's base64: its own alphabet, no padding. */
function encode64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] as number;
    const b = i + 1 < bytes.length ? (bytes[i + 1] as number) : 0;
    const c = i + 2 < bytes.length ? (bytes[i + 2] as number) : 0;
    out += ALPHABET[a >> 2];
    out += ALPHABET[((a & 3) << 4) | (b >> 4)];
    if (i + 1 >= bytes.length) break;
    out += ALPHABET[((b & 15) << 2) | (c >> 6)];
    if (i + 2 >= bytes.length) break;
    out += ALPHABET[c & 63];
  }
  return out;
}

/** The first `length` bytes `text` encodes; undefined when it is not bcrypt's base64. */
function decode64(text: string, length: number): Uint8Array | undefined {
  const values: number[] = [];
  for (const char of text) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) return undefined;
    values.push(value);
  }
  const out = new Uint8Array(length);
  let bits = 0;
  let buffer = 0;
  let at = 0;
  for (const value of values) {
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8 && at < length) {
      bits -= 8;
      out[at++] = (buffer >> bits) & 0xff;
    }
  }
  return at === length ? out : undefined;
}

const MAGIC = new TextEncoder().encode('OrpheanBeholderScryDoubt');

/** The hash of `password` at `cost` (4–31) with a 16-byte salt, as `$<variant>$cc$…`. */
export function bcryptHash(
  password: Uint8Array,
  cost: number,
  salt: Uint8Array,
  variant: '2a' | '2b' | '2y' = '2b',
): string {
  if (!Number.isInteger(cost) || cost < 4 || cost > 31) throw new RangeError('bcrypt cost 4-31');
  if (salt.length !== 16) throw new RangeError('bcrypt salt of 16 bytes');
  // The key is the password and its terminating NUL, at most 72 bytes.
  const key = new Uint8Array(Math.min(password.length + 1, 72));
  key.set(password.subarray(0, key.length));
  const state = new Blowfish();
  state.expand(key, salt);
  for (let round = 0; round < 2 ** cost; round++) {
    state.expand(key);
    state.expand(salt);
  }
  const text = new Uint32Array(6);
  for (let i = 0; i < 6; i++) {
    text[i] =
      (((MAGIC[4 * i] as number) << 24) |
        ((MAGIC[4 * i + 1] as number) << 16) |
        ((MAGIC[4 * i + 2] as number) << 8) |
        (MAGIC[4 * i + 3] as number)) >>>
      0;
  }
  const block = new Uint32Array(2);
  for (let round = 0; round < 64; round++) {
    for (let i = 0; i < 6; i += 2) {
      block[0] = text[i] as number;
      block[1] = text[i + 1] as number;
      state.encipher(block);
      text[i] = block[0] as number;
      text[i + 1] = block[1] as number;
    }
  }
  const digest = new Uint8Array(24);
  for (let i = 0; i < 6; i++) {
    const word = text[i] as number;
    digest[4 * i] = word >>> 24;
    digest[4 * i + 1] = (word >>> 16) & 0xff;
    digest[4 * i + 2] = (word >>> 8) & 0xff;
    digest[4 * i + 3] = word & 0xff;
  }
  const costText = String(cost).padStart(2, '0');
  return `$${variant}$${costText}$${encode64(salt)}${encode64(digest.subarray(0, 23))}`;
}

const HASH = /^\$(2[aby])\$(\d\d)\$([./A-Za-z0-9]{22})([./A-Za-z0-9]{31})$/;

/** Whether `password` is the one `hash` was made from (false for a malformed hash). */
export function bcryptVerify(password: Uint8Array, hash: string): boolean {
  const parts = HASH.exec(hash);
  if (parts === null) return false;
  const [, variant, costText, saltText] = parts as unknown as [string, '2a', string, string];
  const salt = decode64(saltText, 16);
  const cost = Number(costText);
  if (salt === undefined || cost < 4 || cost > 31) return false;
  const computed = Buffer.from(bcryptHash(password, cost, salt, variant));
  const expected = Buffer.from(hash);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
