import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  ConductorRings,
  HashRing,
  NoConductorsError,
  NoValidHostError,
} from '../../../src/baremetal/common/hash-ring.ts';
import { ironicPythonMissing, runIronicPython } from '../support/ironic-python.ts';

/** Deterministic UUID-shaped keys, so every run (and Python) sees the same ones. */
function uuids(count: number, seed = 'ring'): string[] {
  return Array.from({ length: count }, (_, i) => {
    const hex = createHash('sha256').update(`${seed}-${i}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  });
}

const hosts = (n: number) => Array.from({ length: n }, (_, i) => `conductor-${i + 1}`);

function mapping(ring: HashRing, keys: readonly string[]): Map<string, string> {
  return new Map(keys.map((key) => [key, ring.hostsFor(key)[0] as string]));
}

describe('hash ring', () => {
  it('maps the same key to the same host whatever order the hosts come in', () => {
    const keys = uuids(500);
    const one = mapping(new HashRing(['a', 'b', 'c', 'd']), keys);
    const two = mapping(new HashRing(['d', 'b', 'a', 'c', 'a']), keys);
    assert.deepEqual(one, two);
    assert.equal(new Set(one.values()).size, 4);
  });

  it('spreads 10,000 nodes over 10 conductors within 0.6x..1.6x of a fair share', () => {
    const counts = new Map<string, number>();
    const ring = new HashRing(hosts(10));
    for (const key of uuids(10_000)) {
      const host = ring.hostsFor(key)[0] as string;
      counts.set(host, (counts.get(host) ?? 0) + 1);
    }
    assert.equal(counts.size, 10);
    for (const [host, count] of counts) {
      assert.ok(count >= 600 && count <= 1600, `${host} has ${count} of 10,000`);
    }
  });

  it('spreads within 15% of a fair share with 2^10 partitions per host', () => {
    const counts = new Map<string, number>();
    const ring = new HashRing(hosts(4), { partitionExponent: 10 });
    for (const key of uuids(20_000)) {
      const host = ring.hostsFor(key)[0] as string;
      counts.set(host, (counts.get(host) ?? 0) + 1);
    }
    for (const [host, count] of counts) {
      assert.ok(Math.abs(count - 5000) <= 750, `${host} has ${count} of 20,000`);
    }
  });

  it('moves only the new host its share when a conductor joins', () => {
    const keys = uuids(6000);
    const before = mapping(new HashRing(hosts(3)), keys);
    const after = mapping(new HashRing(hosts(4)), keys);
    let moved = 0;
    for (const key of keys) {
      if (before.get(key) === after.get(key)) continue;
      moved++;
      assert.equal(after.get(key), 'conductor-4', `${key} moved between old hosts`);
    }
    // about a quarter, and never the whole lot
    assert.ok(moved > 6000 * 0.1 && moved < 6000 * 0.45, `${moved} of 6000 moved`);
  });

  it('moves only the nodes of a conductor that leaves', () => {
    const keys = uuids(6000);
    const before = mapping(new HashRing(hosts(4)), keys);
    const after = mapping(new HashRing(hosts(4).filter((h) => h !== 'conductor-2')), keys);
    for (const key of keys) {
      if (before.get(key) !== 'conductor-2') assert.equal(after.get(key), before.get(key), key);
      else assert.notEqual(after.get(key), 'conductor-2');
    }
  });

  it('gives distinct replicas and skips ignored hosts', () => {
    const ring = new HashRing(hosts(3));
    for (const key of uuids(50)) {
      const all = ring.hostsFor(key, { replicas: 5 });
      assert.equal(new Set(all).size, 3);
      const first = all[0] as string;
      const next = ring.hostsFor(key, { ignore: [first] });
      assert.deepEqual(next, [all[1]]);
    }
    assert.deepEqual(new HashRing([]).hostsFor('x'), []);
  });

  it('answers a key looked up before as it did the first time, replicas and ignores included', () => {
    const ring = new HashRing(hosts(3));
    const fresh = new HashRing(hosts(3));
    for (const key of uuids(50, 'again')) {
      const first = ring.hostsFor(key);
      assert.deepEqual(ring.hostsFor(key), first);
      // A remembered first host must not stand in for the replicas or the ignores.
      assert.deepEqual(ring.hostsFor(key, { replicas: 3 }), fresh.hostsFor(key, { replicas: 3 }));
      assert.deepEqual(
        ring.hostsFor(key, { ignore: first }),
        fresh.hostsFor(key, { ignore: first }),
      );
      assert.notDeepEqual(ring.hostsFor(key, { ignore: first }), first);
    }
  });
});

describe('conductor rings', () => {
  const conductors = [
    { hostname: 'c1', conductorGroup: '', hardwareTypes: ['fake-hardware', 'ipmi'] },
    { hostname: 'c2', conductorGroup: '', hardwareTypes: ['fake-hardware'] },
    { hostname: 'c3', conductorGroup: 'rack2', hardwareTypes: ['fake-hardware'] },
  ];
  const rings = new ConductorRings(conductors);

  it('maps a node within its group and hardware type only', () => {
    for (const uuid of uuids(200)) {
      const plain = rings.conductorFor({ uuid, driver: 'fake-hardware', conductorGroup: '' });
      assert.ok(plain === 'c1' || plain === 'c2');
      assert.equal(rings.conductorFor({ uuid, driver: 'ipmi', conductorGroup: null }), 'c1');
      assert.equal(
        rings.conductorFor({ uuid, driver: 'fake-hardware', conductorGroup: 'rack2' }),
        'c3',
      );
      assert.ok(rings.isMappedTo({ uuid, driver: 'fake-hardware', conductorGroup: '' }, plain));
    }
    assert.deepEqual([...rings.hostsWith('fake-hardware')].sort(), ['c1', 'c2']);
  });

  it('finds no host for a driver no live conductor of the group has, in the real words', () => {
    assert.throws(
      () => rings.conductorFor({ uuid: 'u', driver: 'redfish', conductorGroup: '' }),
      (error: unknown) =>
        error instanceof NoValidHostError &&
        error.message ===
          'No valid host was found. Reason: No conductor service registered which supports driver redfish for conductor group "".',
    );
    assert.throws(
      () => rings.conductorFor({ uuid: 'u', driver: 'ipmi', conductorGroup: 'rack2' }),
      NoValidHostError,
    );
    assert.throws(
      () => new ConductorRings([]).conductorFor({ uuid: 'u', driver: 'ipmi', conductorGroup: '' }),
      (error: unknown) =>
        error instanceof NoConductorsError &&
        error.message === 'Resource temporarily unavailable, please retry.',
    );
  });

  it("a hardware type's conductors for driver calls are taken from every group", () => {
    assert.deepEqual(rings.hostsServing('fake-hardware'), ['c1', 'c2', 'c3']);
    assert.deepEqual(rings.hostsServing('ipmi'), ['c1']);
    assert.deepEqual(rings.hostsServing('redfish'), []);
  });
});

describe('hash ring against the real tooz HashRing (Ironic 21.4.4)', () => {
  const skip = ironicPythonMissing();

  it('maps 2,000 nodes exactly as tooz does, for several host sets and exponents', {
    skip,
  }, async () => {
    const keys = uuids(2000, 'tooz');
    const cases = [
      { hosts: ['127.0.0.1'], exponent: 5 },
      { hosts: ['127.0.0.1', '127.0.0.2'], exponent: 5 },
      { hosts: hosts(7), exponent: 5 },
      { hosts: ['ironic-conductor-a.example.com', 'b', 'ç-unicode'], exponent: 3 },
    ];
    const real = await runIronicPython<string[][][]>(`
import json
from tooz import hashring
cases = ${JSON.stringify(cases)}
keys = ${JSON.stringify(keys)}
out = []
for case in cases:
    ring = hashring.HashRing(case['hosts'], partitions=2 ** case['exponent'])
    out.append([[sorted(ring.get_nodes(k.encode('utf-8')))[0],
                 sorted(ring.get_nodes(k.encode('utf-8'), replicas=2)),
                 sorted(ring.get_nodes(k.encode('utf-8'), ignore_nodes=[case['hosts'][0]]))]
                for k in keys])
print(json.dumps(out))
`);
    cases.forEach((c, i) => {
      const ring = new HashRing(c.hosts, { partitionExponent: c.exponent });
      const ours = keys.map((key) => [
        ring.hostsFor(key)[0] as string,
        ring.hostsFor(key, { replicas: 2 }).sort(),
        ring.hostsFor(key, { ignore: [c.hosts[0] as string] }).sort(),
      ]);
      assert.deepEqual(ours, real[i], `hosts ${c.hosts.join(',')}`);
    });
  });
});
