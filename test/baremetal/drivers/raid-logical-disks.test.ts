/**
 * The RAID configuration schema's checks (raid-logical-disks.ts) against the real ones: each
 * configuration below was given to ironic.common.raid.validate_configuration with Ironic
 * 21.4.4's raid_config_schema.json under Debian's python3-jsonschema 4.10.3, and the text it
 * raised (null: valid) is what Baton must raise.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  RAID_CONFIG_SCHEMA,
  RAID_LOGICAL_DISK_PROPERTIES,
  validateRaidConfiguration,
} from '../../../src/baremetal/drivers/raid-logical-disks.ts';

const REAL: [unknown, string | null][] = [
  [{ logical_disks: [] }, 'RAID config validation error: [] is too short'],
  [{ foo: 1 }, "RAID config validation error: 'logical_disks' is a required property"],
  [
    { foo: 1, logical_disks: [{ raid_level: '1', size_gb: 1 }] },
    "RAID config validation error: Additional properties are not allowed ('foo' was unexpected)",
  ],
  [{ logical_disks: 'x' }, "RAID config validation error: 'x' is not of type 'array'"],
  [
    { logical_disks: [{ raid_level: '7', size_gb: 10 }] },
    "RAID config validation error: '7' is not one of ['JBOD', '0', '1', '2', '5', '6', '1+0', '5+0', '6+0']",
  ],
  [
    { logical_disks: [{ raid_level: 1, size_gb: 10 }] },
    "RAID config validation error: 1 is not of type 'string'",
  ],
  [
    { logical_disks: [{ raid_level: '1', size_gb: -1 }] },
    'RAID config validation error: -1 is less than the minimum of 0',
  ],
  [
    { logical_disks: [{ raid_level: '1', size_gb: 'max' }] },
    "RAID config validation error: 'max' is not one of ['MAX']",
  ],
  [
    { logical_disks: [{ raid_level: '1', size_gb: 1.5 }] },
    'RAID config validation error: 1.5 is not valid under any of the given schemas',
  ],
  [
    { logical_disks: [{ raid_level: '1' }] },
    "RAID config validation error: 'size_gb' is a required property",
  ],
  [
    { logical_disks: [{ size_gb: 1 }] },
    "RAID config validation error: 'raid_level' is a required property",
  ],
  [{ logical_disks: [{}] }, "RAID config validation error: 'raid_level' is a required property"],
  [
    { logical_disks: [{ raid_level: '1', size_gb: 1, bogus: true }] },
    "RAID config validation error: Additional properties are not allowed ('bogus' was unexpected)",
  ],
  [
    { logical_disks: [{ raid_level: '1', size_gb: 1, physical_disks: ['a', 'b'] }] },
    "RAID config validation error: 'controller' is a dependency of 'physical_disks'",
  ],
  [
    {
      logical_disks: [{ raid_level: '1', size_gb: 1, controller: 'c', physical_disks: [{ a: 1 }] }],
    },
    "RAID config validation error: {'a': 1} is not of type 'string'",
  ],
  [
    { logical_disks: [{ raid_level: '1', size_gb: 1, controller: 'c', physical_disks: [1] }] },
    'RAID config validation error: [1] is not valid under any of the given schemas',
  ],
  [
    { logical_disks: [{ raid_level: '1', size_gb: 1, number_of_physical_disks: 0 }] },
    'RAID config validation error: 0 is less than or equal to the minimum of 0',
  ],
  [
    { logical_disks: [{ raid_level: '1', size_gb: 1, number_of_physical_disks: -2 }] },
    'RAID config validation error: -2 is less than or equal to the minimum of 0',
  ],
  [
    { logical_disks: [{ raid_level: '1', size_gb: 1, disk_type: 'nvme' }] },
    "RAID config validation error: 'nvme' is not one of ['hdd', 'ssd']",
  ],
  [
    { logical_disks: [{ raid_level: '1', size_gb: 1, is_root_volume: 'yes' }] },
    "RAID config validation error: 'yes' is not of type 'boolean'",
  ],
  [
    {
      logical_disks: [
        { raid_level: '1', size_gb: 'MAX', is_root_volume: true },
        { raid_level: '0', size_gb: 10, is_root_volume: true },
      ],
    },
    'Raid config cannot have more than one root volume. 2 root volumes were specified',
  ],
  [
    {
      logical_disks: [
        { raid_level: '1', size_gb: 1 },
        { raid_level: '9', size_gb: -3 },
      ],
    },
    "RAID config validation error: '9' is not one of ['JBOD', '0', '1', '2', '5', '6', '1+0', '5+0', '6+0']",
  ],
  [
    {
      logical_disks: [
        {
          raid_level: '1+0',
          size_gb: 100,
          volume_name: 'v',
          share_physical_disks: true,
          interface_type: 'sas',
          controller: 'RAID.Integrated.1-1',
          physical_disks: ['Disk.0', 'Disk.1'],
          number_of_physical_disks: 2,
          is_root_volume: true,
        },
      ],
    },
    null,
  ],
];

test('every configuration is refused (or accepted) with the real text', () => {
  for (const [config, expected] of REAL) {
    let got: string | null = null;
    try {
      validateRaidConfiguration(config);
    } catch (error) {
      got = (error as Error).message;
      assert.equal((error as { code: number }).code, 400);
    }
    assert.equal(got, expected, JSON.stringify(config));
  }
});

test("the logical disk properties are the schema's descriptions, in its order", () => {
  const items = RAID_CONFIG_SCHEMA.properties.logical_disks.items.properties;
  assert.deepEqual(Object.keys(RAID_LOGICAL_DISK_PROPERTIES), Object.keys(items));
  assert.equal(
    RAID_LOGICAL_DISK_PROPERTIES.controller,
    'Controller to use for this logical disk. If not specified, the driver will choose a suitable RAID controller on the bare metal node. Optional.',
  );
});
