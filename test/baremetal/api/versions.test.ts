import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BAREMETAL_FEATURE_VERSIONS,
  NODE_FIELD_FEATURES,
  PORT_FIELD_FEATURES,
  PORTGROUP_FIELD_FEATURES,
} from '../../../src/baremetal/api/features.ts';
import {
  BAREMETAL_VERSIONS,
  MIN_VERSION,
  SERVED_MAX_VERSION,
  SERVED_VERSIONS,
} from '../../../src/baremetal/api/versions.ts';
import { parseVersion, versionRange } from '../../../src/microversion/index.ts';
import { ironicPythonMissing, runIronicPython } from '../support/ironic-python.ts';

describe('bare metal API versions', () => {
  it('lists 1.1 to 1.82 in order, without a gap', () => {
    assert.deepEqual(versionRange(BAREMETAL_VERSIONS), { min: '1.1', max: '1.82' });
    BAREMETAL_VERSIONS.forEach((text, i) => {
      assert.deepEqual(parseVersion(text), { major: 1, minor: i + 1 });
    });
  });

  it('serves 1.1 to 1.82 (antelope): every listed version', () => {
    assert.equal(MIN_VERSION, '1.1');
    assert.equal(SERVED_MAX_VERSION, '1.82');
    assert.deepEqual(SERVED_VERSIONS, BAREMETAL_VERSIONS);
  });

  it('has a gate naming a listed version for every version after the first', () => {
    const listed = new Set<string>(BAREMETAL_VERSIONS);
    for (const [gate, version] of Object.entries(BAREMETAL_FEATURE_VERSIONS)) {
      assert.ok(listed.has(version), `${gate} names ${version}, not in the list`);
    }
    const gated = new Set<string>(Object.values(BAREMETAL_FEATURE_VERSIONS));
    assert.deepEqual(
      BAREMETAL_VERSIONS.slice(1).filter((version) => !gated.has(version)),
      [],
    );
  });

  it('gates fields only with gates of the table', () => {
    for (const table of [NODE_FIELD_FEATURES, PORT_FIELD_FEATURES, PORTGROUP_FIELD_FEATURES]) {
      for (const [field, gate] of Object.entries(table)) {
        assert.ok(gate in BAREMETAL_FEATURE_VERSIONS, `${field}: ${gate}`);
      }
    }
  });
});

describe('bare metal API versions against the real Ironic 21.4.4', () => {
  const skip = ironicPythonMissing();

  it('has the real maximum, antelope and one gate per real MINOR_* constant', {
    skip,
  }, async () => {
    const real = await runIronicPython<{
      max: number;
      antelope: string;
      minors: Record<string, number>;
      fields: Record<string, number>;
    }>(`
import json
from ironic.api.controllers.v1 import versions, utils
from ironic.common import release_mappings
print(json.dumps({
    'max': versions.MINOR_MAX_VERSION,
    'antelope': release_mappings.RELEASE_MAPPING['antelope']['api'],
    'minors': {k: v for k, v in vars(versions).items() if k.startswith('MINOR_') and k != 'MINOR_MAX_VERSION'},
    'fields': utils.VERSIONED_FIELDS,
}))
`);
    assert.equal(BAREMETAL_VERSIONS.at(-1), `1.${real.max}`);
    assert.equal(SERVED_MAX_VERSION, real.antelope);
    assert.equal(SERVED_MAX_VERSION, `1.${real.max}`);
    const gated = new Set<string>(Object.values(BAREMETAL_FEATURE_VERSIONS));
    for (const [name, minor] of Object.entries(real.minors)) {
      if (minor <= 1) continue; // 1.0 is Juno, never served; 1.1 is the base
      assert.ok(gated.has(`1.${minor}`), `no gate for ${name}`);
    }
    const ours = Object.fromEntries(
      Object.entries(NODE_FIELD_FEATURES).map(([field, gate]) => [
        field,
        parseVersion(BAREMETAL_FEATURE_VERSIONS[gate]).minor,
      ]),
    );
    assert.deepEqual(ours, real.fields);
  });
});
