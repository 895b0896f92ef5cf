/**
 * The hash of a rescue password the conductor keeps beside it in instance_info
 * (`hashed_rescue_password`), as the real one makes it with Python's `crypt` and
 * `[conductor] rescue_password_hash_algorithm = sha256`: SHA-256-crypt (Ulrich Drepper's
 * "Unix crypt using SHA-256", the `$5$` format of glibc), 5000 rounds, a 16-character salt.
 */
import { createHash, randomInt } from 'node:crypto';

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ROUNDS = 5000;

const sha256 = (...parts: Buffer[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** `length` bytes of `block` repeated. */
function repeatTo(block: Buffer, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = block[i % block.length] as number;
  return out;
}

function encode(c: Buffer): string {
  // The byte order of the `$5$` encoding: triples, then the last two bytes.
  const order = [
    [0, 10, 20],
    [21, 1, 11],
    [12, 22, 2],
    [3, 13, 23],
    [24, 4, 14],
    [15, 25, 5],
    [6, 16, 26],
    [27, 7, 17],
    [18, 28, 8],
    [9, 19, 29],
  ] as const;
  let out = '';
  const put = (b2: number, b1: number, b0: number, n: number) => {
    let w = (b2 << 16) | (b1 << 8) | b0;
    for (let i = 0; i < n; i++) {
      out += ITOA64[w & 0x3f];
      w >>= 6;
    }
  };
  for (const [a, b, d] of order) put(c[a] as number, c[b] as number, c[d] as number, 4);
  put(0, c[31] as number, c[30] as number, 3);
  return out;
}

/** SHA-256-crypt of `password` with `salt` (at most 16 characters are used). */
export function sha256Crypt(password: string, salt: string): string {
  const p = Buffer.from(password, 'utf8');
  const s = Buffer.from(salt.slice(0, 16), 'utf8');
  const b = sha256(p, s, p);
  const a = createHash('sha256').update(p).update(s);
  let length = p.length;
  for (; length > 32; length -= 32) a.update(b);
  a.update(b.subarray(0, length));
  for (let i = p.length; i > 0; i >>= 1) a.update(i & 1 ? b : p);
  const digestA = a.digest();
  const dp = sha256(...Array.from({ length: p.length }, () => p));
  const pBytes = repeatTo(dp, p.length);
  const ds = sha256(...Array.from({ length: 16 + (digestA[0] as number) }, () => s));
  const sBytes = repeatTo(ds, s.length);
  let c = digestA;
  for (let round = 0; round < ROUNDS; round++) {
    const ctx = createHash('sha256');
    ctx.update(round & 1 ? pBytes : c);
    if (round % 3) ctx.update(sBytes);
    if (round % 7) ctx.update(pBytes);
    ctx.update(round & 1 ? c : pBytes);
    c = ctx.digest();
  }
  return `$5$${salt.slice(0, 16)}$${encode(c)}`;
}

/** utils.hash_password: a new random salt each time. */
export function hashRescuePassword(password: string): string {
  const salt = Array.from({ length: 16 }, () => ITOA64[randomInt(64)]).join('');
  return sha256Crypt(password, salt);
}
