/**
 * BIOSSetting 1.1, as Ironic 21.4 has it: one BIOS setting of a node, a row of `bios_settings`
 * keyed by the node and the setting's name (API 1.40, `GET /v1/nodes/{node}/bios`). 1.1 added
 * the registry fields a BIOS interface may report with a setting (API 1.74). New to Baton in
 * antelope; Ironic's since rocky. `node_id` is a String field in Ironic, though the column is
 * an integer, as Trait's.
 */
import { defineObjectType, f } from '../../objects/index.ts';
import { addedFields, unchanged } from './history.ts';
import { IRONIC_NAMESPACE, timestampFields } from './namespace.ts';

/** The fields 1.1 added (Ironic's `BIOSSetting.registry_fields`), in Ironic's order. */
export const BIOS_REGISTRY_FIELDS = [
  'attribute_type',
  'allowable_values',
  'lower_bound',
  'max_length',
  'min_length',
  'read_only',
  'reset_required',
  'unique',
  'upper_bound',
] as const;

export const BIOSSetting = defineObjectType({
  name: 'BIOSSetting',
  namespace: IRONIC_NAMESPACE,
  fields: {
    node_id: f.string(),
    name: f.string(),
    value: f.string({ nullable: true }),
    attribute_type: f.string({ nullable: true }),
    allowable_values: f.listOfStrings({ nullable: true }),
    lower_bound: f.integer({ nullable: true }),
    max_length: f.integer({ nullable: true }),
    min_length: f.integer({ nullable: true }),
    read_only: f.boolean({ nullable: true }),
    reset_required: f.boolean({ nullable: true }),
    unique: f.boolean({ nullable: true }),
    upper_bound: f.integer({ nullable: true }),
    ...timestampFields(),
  },
  history: [
    unchanged('1.0', 'Initial version'),
    addedFields(
      '1.1',
      'Added registry',
      Object.fromEntries(BIOS_REGISTRY_FIELDS.map((name) => [name, null])),
    ),
  ],
});

export type BIOSSettingObject = ReturnType<typeof BIOSSetting.create>;
