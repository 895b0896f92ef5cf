/**
 * Ironic's RAID configuration schema (ironic/drivers/raid_config_schema.json at 21.4.4, a
 * draft-04 schema) and what is built on it (ironic/common/raid.py):
 * - `validateRaidConfiguration` (validate_configuration): jsonschema's best match as
 *   `RAID config validation error: <message>`, then more than one root volume refused as
 *   `Raid config cannot have more than one root volume. <n> root volumes were specified`
 *   (both InvalidParameterValue, 400);
 * - `RAID_LOGICAL_DISK_PROPERTIES` (get_logical_disk_properties): the logical disk keys and
 *   their descriptions, what GET /v1/drivers/{name}/raid/logical_disk_properties (1.12) returns
 *   for every RAID interface Baton has (the real base RAIDInterface's answer; no interface
 *   overrides it).
 */
import { bestMatch, iterErrors } from '../../python-compat/jsonschema-errors.ts';
import { InvalidParameterError } from '../common/errors.ts';

const LOGICAL_DISK_PROPERTIES = {
  raid_level: {
    type: 'string',
    enum: ['JBOD', '0', '1', '2', '5', '6', '1+0', '5+0', '6+0'],
    description:
      "RAID level for the logical disk. Valid values are 'JBOD', '0', '1', '2', '5', '6', '1+0', '5+0' and '6+0'. Required.",
  },
  size_gb: {
    anyOf: [
      { type: 'integer', minimum: 0 },
      { type: 'string', enum: ['MAX'] },
    ],
    description:
      "Size in GiB (Integer) for the logical disk. Use 'MAX' as size_gb if this logical disk is supposed to use the rest of the space available. Required.",
  },
  volume_name: {
    type: 'string',
    description:
      'Name of the volume to be created. If this is not specified, it will be auto-generated. Optional.',
  },
  is_root_volume: {
    type: 'boolean',
    description:
      'Specifies whether this disk is a root volume. By default, this is False. Optional.',
  },
  share_physical_disks: {
    type: 'boolean',
    description:
      'Specifies whether other logical disks can share physical disks with this logical disk. By default, this is False. Optional.',
  },
  disk_type: {
    type: 'string',
    enum: ['hdd', 'ssd'],
    description:
      "The type of disk preferred. Valid values are 'hdd' and 'ssd'. If this is not specified, disk type will not be a selection criterion for choosing backing physical disks. Optional.",
  },
  interface_type: {
    type: 'string',
    enum: ['sata', 'scsi', 'sas'],
    description:
      "The interface type of disk. Valid values are 'sata', 'scsi' and 'sas'. If this is not specified, interface type will not be a selection criterion for choosing backing physical disks. Optional.",
  },
  number_of_physical_disks: {
    type: 'integer',
    minimum: 0,
    exclusiveMinimum: true,
    description:
      'Number of physical disks to use for this logical disk. By default, the driver uses the minimum number of disks required for that RAID level. Optional.',
  },
  controller: {
    type: 'string',
    description:
      'Controller to use for this logical disk. If not specified, the driver will choose a suitable RAID controller on the bare metal node. Optional.',
  },
  physical_disks: {
    anyOf: [
      { type: 'array', items: { type: 'string' } },
      { type: 'array', items: { type: 'object' }, minItems: 2 },
    ],
    description:
      'The physical disks to use for this logical disk. If not specified, the driver will choose suitable physical disks to use. Optional.',
  },
} as const;

/** raid_config_schema.json, keys in the file's order (jsonschema walks them in that order). */
export const RAID_CONFIG_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'raid configuration json schema',
  type: 'object',
  properties: {
    logical_disks: {
      type: 'array',
      items: {
        type: 'object',
        properties: LOGICAL_DISK_PROPERTIES,
        required: ['raid_level', 'size_gb'],
        additionalProperties: false,
        dependencies: { physical_disks: ['controller'] },
      },
      minItems: 1,
    },
  },
  required: ['logical_disks'],
  additionalProperties: false,
} as const;

export const RAID_LOGICAL_DISK_PROPERTIES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(LOGICAL_DISK_PROPERTIES).map(([name, spec]) => [name, spec.description]),
);

/** raid.validate_configuration against the schema, with the real texts. */
export function validateRaidConfiguration(config: unknown): void {
  const best = bestMatch(iterErrors(RAID_CONFIG_SCHEMA, config, () => true));
  if (best !== undefined) {
    throw new InvalidParameterError(`RAID config validation error: ${best.message}`);
  }
  const disks = (config as { logical_disks: Record<string, unknown>[] }).logical_disks;
  // Python's truth of `is_root_volume` (the schema has made it a boolean).
  const roots = disks.filter((disk) => disk.is_root_volume === true).length;
  if (roots > 1) {
    throw new InvalidParameterError(
      `Raid config cannot have more than one root volume. ${roots} root volumes were specified`,
    );
  }
}
