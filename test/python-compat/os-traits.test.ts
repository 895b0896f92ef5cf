/**
 * The standard traits and resource classes Baton holds (src/python-compat/os-traits.json,
 * src/placement/data/standard-resource-classes.json, snapshots taken so that Baton runs
 * without Python) are those of the real os-traits and os-resource-classes libraries, which
 * Placement and Ironic read them from: asked of Debian's python3-os-traits and
 * python3-os-resource-classes at test time, never of Baton's own constants alone.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { STANDARD_RESOURCE_CLASSES } from '../../src/placement/store/standard-data.ts';
import { STANDARD_TRAITS } from '../../src/python-compat/os-traits.ts';
import { skipOutsideCi } from '../support/skip-outside-ci.ts';

const PYTHON = '/usr/bin/python3';
const PACKAGES = '/usr/lib/python3/dist-packages';
const INSTALL = 'apt-get install python3-os-traits python3-os-resource-classes';

function missing(): string | undefined {
  for (const path of [PYTHON, `${PACKAGES}/os_traits`, `${PACKAGES}/os_resource_classes`]) {
    if (!existsSync(path)) return `${path} is missing (install: ${INSTALL})`;
  }
  return undefined;
}

interface Real {
  versions: { traits: string; classes: string };
  traits: string[];
  classes: string[];
  customTraitPrefix: string;
  customClassPrefix: string;
}

function real(): Real {
  const script = `
import json, importlib.metadata as md
import os_traits, os_resource_classes as orc
print(json.dumps({
  'versions': {'traits': md.version('os-traits'), 'classes': md.version('os-resource-classes')},
  'traits': sorted(os_traits.get_traits()),
  'classes': list(orc.STANDARDS),
  'customTraitPrefix': os_traits.CUSTOM_NAMESPACE,
  'customClassPrefix': orc.CUSTOM_NAMESPACE,
}))`;
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { encoding: 'utf8' })) as Real;
}

describe('standard traits and resource classes, against os-traits and os-resource-classes', {
  skip: skipOutsideCi(missing()),
}, () => {
  const answer = missing() === undefined ? real() : undefined;
  const library = () => answer as Real;

  it('are the versions the snapshots were taken from (os-traits 2.9.0, os-resource-classes 1.1.0)', () => {
    assert.deepEqual(library().versions, { traits: '2.9.0', classes: '1.1.0' });
  });

  it('hold every standard trait of os-traits, and no other', () => {
    assert.deepEqual([...STANDARD_TRAITS].sort(), library().traits);
  });

  it('hold the standard resource classes in os-resource-classes order, which gives their ids', () => {
    assert.deepEqual([...STANDARD_RESOURCE_CLASSES], library().classes);
  });

  it('share the custom prefix', () => {
    assert.equal(library().customTraitPrefix, 'CUSTOM_');
    assert.equal(library().customClassPrefix, 'CUSTOM_');
  });
});
