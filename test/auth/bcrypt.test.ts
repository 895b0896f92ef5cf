/**
 * bcrypt (src/auth/bcrypt.ts) against hashes Python's bcrypt 3.2.2 made (the library
 * ironic-lib checks htpasswd entries with): each variant, a password with a colon and UTF-8,
 * the 72-byte limit, the empty password.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bcryptHash, bcryptVerify } from '../../src/auth/bcrypt.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

// Made with bcrypt.hashpw(password, bcrypt.gensalt(rounds, prefix)).
const VECTORS: readonly [string, string][] = [
  ['secret', '$2b$04$cypj9YO/Cu2ntFFH7SQJHe3e/0ON0dNcCoyui3nKsRhwrL80ClQKW'],
  ['päss:word', '$2a$05$JF0JK4uKfGuve6U/IIYH2OFRDJt3ZH7USKmxjEjfP4/RzBiwTpuNW'],
  ['x'.repeat(80), '$2b$04$i9djpNAzJzO1aBaSSDnfXOCluaRHsuZdx37EgFDWDLQvtCa2K0WHS'],
  ['', '$2b$04$UnGBotvr.BF99vxkjA852eyUSL9OPM.7gfoQu1tczDF4XcTu4I5tC'],
  ['alpha', '$2y$04$ZN0Dhbzi/iPwqk6mQGaN0.M6AMyFEDyTrdxA4clhJ8z4BigLkEFUm'],
];

describe('bcrypt', () => {
  it("accepts the password each of Python's hashes was made from", () => {
    for (const [password, hash] of VECTORS) {
      assert.equal(bcryptVerify(bytes(password), hash), true, hash);
    }
  });

  it('refuses another password, and only the first 72 bytes count', () => {
    assert.equal(bcryptVerify(bytes('Secret'), VECTORS[0]?.[1] as string), false);
    assert.equal(bcryptVerify(bytes('x'), VECTORS[3]?.[1] as string), false);
    assert.equal(bcryptVerify(bytes('x'.repeat(72)), VECTORS[2]?.[1] as string), true);
    assert.equal(bcryptVerify(bytes('x'.repeat(71)), VECTORS[2]?.[1] as string), false);
  });

  it('refuses malformed hashes rather than throwing', () => {
    for (const hash of [
      '',
      '$1$04$x',
      '$2b$03$cypj9YO/Cu2ntFFH7SQJHe3e/0ON0dNcCoyui3nKsRhwrL80ClQKW',
    ]) {
      assert.equal(bcryptVerify(bytes('secret'), hash), false, hash);
    }
  });

  it('writes the hash as Python does for a given salt', () => {
    // bcrypt.hashpw(b'secret', b'$2b$04$......................')
    assert.equal(
      bcryptHash(bytes('secret'), 4, new Uint8Array(16)),
      '$2b$04$....................../dCAsp4PpJoDgv6BeaLP6BKrXlBV1oi',
    );
  });
});
