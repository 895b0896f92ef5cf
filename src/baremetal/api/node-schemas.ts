/**
 * The node body schemas of the real API (node.py's node_schema and node_patch_schema) and the
 * checks it runs after them (NODE_VALIDATE_EXTRA: booleans read as oslo reads them, UUIDs).
 *
 * `network_data` is checked to be an object (or null) only: the real service also holds it to
 * the network_data.json format's schema, which Baton does not carry (docs/baremetal.md).
 */
import type { JsonSchema } from '../../python-compat/index.ts';
import { args, type Validator } from './params.ts';
import { dictValid, schemaArg } from './schema-args.ts';

const DESCRIPTION_MAX_LENGTH = 4096;
export const NODE_DESCRIPTION_MAX_LENGTH = DESCRIPTION_MAX_LENGTH;

const stringOrNull = { type: ['string', 'null'] };
const booleanish = { type: ['string', 'boolean', 'null'] };
const objectOrNull = { type: ['object', 'null'] };

export const NODE_SCHEMA: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    automated_clean: booleanish,
    bios_interface: stringOrNull,
    boot_interface: stringOrNull,
    boot_mode: stringOrNull,
    chassis_uuid: stringOrNull,
    conductor_group: stringOrNull,
    console_enabled: booleanish,
    console_interface: stringOrNull,
    deploy_interface: stringOrNull,
    description: { type: ['string', 'null'], maxLength: DESCRIPTION_MAX_LENGTH },
    driver: { type: 'string' },
    driver_info: objectOrNull,
    extra: objectOrNull,
    inspect_interface: stringOrNull,
    instance_info: objectOrNull,
    instance_uuid: stringOrNull,
    lessee: stringOrNull,
    management_interface: stringOrNull,
    maintenance: booleanish,
    name: stringOrNull,
    network_data: objectOrNull,
    network_interface: stringOrNull,
    owner: stringOrNull,
    power_interface: stringOrNull,
    properties: objectOrNull,
    raid_interface: stringOrNull,
    rescue_interface: stringOrNull,
    resource_class: { type: ['string', 'null'], maxLength: 80 },
    retired: booleanish,
    retired_reason: stringOrNull,
    secure_boot: booleanish,
    shard: stringOrNull,
    storage_interface: stringOrNull,
    uuid: stringOrNull,
    vendor_interface: stringOrNull,
  },
  required: ['driver'],
  additionalProperties: false,
};

export const NODE_PATCH_SCHEMA: JsonSchema = {
  ...NODE_SCHEMA,
  properties: {
    ...(NODE_SCHEMA.properties as Record<string, unknown>),
    protected: booleanish,
    protected_reason: stringOrNull,
  },
};

const VALIDATE_EXTRA = dictValid({
  automated_clean: args.boolean,
  chassis_uuid: args.uuid,
  console_enabled: args.boolean,
  instance_uuid: args.uuid,
  protected: args.boolean,
  maintenance: args.boolean,
  retired: args.boolean,
  uuid: args.uuid,
});

export const NODE_VALIDATOR: Validator = args.and(
  schemaArg(NODE_SCHEMA, { noneIsValid: false }),
  VALIDATE_EXTRA,
);
export const NODE_PATCH_VALIDATOR: Validator = args.and(
  schemaArg(NODE_PATCH_SCHEMA),
  VALIDATE_EXTRA,
);

/** What a node PATCH may touch (PATCH_ALLOWED_FIELDS), in the real order. */
export const PATCH_ALLOWED_FIELDS = [
  'automated_clean',
  'bios_interface',
  'boot_interface',
  'chassis_uuid',
  'conductor_group',
  'console_interface',
  'deploy_interface',
  'description',
  'driver',
  'driver_info',
  'extra',
  'inspect_interface',
  'instance_info',
  'instance_uuid',
  'lessee',
  'maintenance',
  'management_interface',
  'name',
  'network_data',
  'network_interface',
  'owner',
  'power_interface',
  'properties',
  'protected',
  'protected_reason',
  'raid_interface',
  'rescue_interface',
  'resource_class',
  'retired',
  'retired_reason',
  'shard',
  'storage_interface',
  'vendor_interface',
];

/**
 * The names a node may not take (get_controller_reserved_names: the controller's
 * sub-controllers by name, then its custom actions).
 */
export const RESERVED_NODE_NAMES = [
  'maintenance',
  'management',
  'states',
  'vendor_passthru',
  'detail',
  'validate',
];
