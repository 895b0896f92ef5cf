/**
 * The objects' own IP address check answers as node:net's isIP does (objects are pure and
 * do not import the socket module): on addresses of every shape, near-misses and noise.
 */
import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { test } from 'node:test';
import fc from 'fast-check';
import { ipAddressFamily } from '../../src/objects/fields/ip-address.ts';
import { f } from '../../src/objects/index.ts';

const noise = fc.constantFrom(...'0123456789abcdefABCDEFg:.%-z'.split(''));
const group = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefG'.split('')), maxLength: 5 }),
  fc.constant(''),
  fc.ipV4(),
);
const candidates = fc.oneof(
  fc.string({ unit: noise, maxLength: 45 }),
  fc.ipV4(),
  fc.ipV4Extended(),
  fc.ipV6(),
  fc.tuple(fc.ipV6(), fc.string({ unit: noise, maxLength: 6 })).map(([a, z]) => `${a}%${z}`),
  fc.array(group, { maxLength: 10 }).map((groups) => groups.join(':')),
);

test('ipAddressFamily agrees with net.isIP on generated texts', () => {
  fc.assert(
    fc.property(candidates, (text) => ipAddressFamily(text) === isIP(text)),
    { numRuns: 20_000 },
  );
});

test('ipAddressFamily agrees with net.isIP at the edges of the grammar', () => {
  const edges = [
    '::',
    '::1',
    '1::',
    '1:2:3:4:5:6:7::',
    '::2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7:8::',
    '::ffff:1.2.3.4',
    '1:2:3:4:5:6:1.2.3.4',
    '1:2:3:4:5:6:7:1.2.3.4',
    '1::1.2.3.4',
    '1.2.3.4::',
    'fe80::1%eth0',
    'fe80::1%',
    '01.2.3.4',
    '1.2.3.256',
    '1.2.3.4%x',
    ':::',
    '1:::2',
    ':1::',
    '::1:',
    '',
  ];
  for (const text of edges) assert.equal(ipAddressFamily(text), isIP(text), text);
});

test('the IPAddress field takes addresses and refuses the rest', () => {
  const field = f.ipAddress();
  assert.equal(field.type.coerce('fe80::1%eth0'), 'fe80::1%eth0');
  assert.equal(field.type.coerce('192.0.2.1'), '192.0.2.1');
  assert.throws(() => field.type.coerce('192.0.2.256'));
});
