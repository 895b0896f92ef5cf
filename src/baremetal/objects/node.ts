/**
 * Node 1.37, as Ironic 21.4 (antelope) has it, with every version back to 1.0. The fields are
 * in Ironic's order. 1.37 added `shard` (API 1.82): null when unavailable, removed on the wire.
 *
 * Ironic's version comments do not name `console_enabled`, `inspection_started_at` and
 * `inspection_finished_at`; they predate or escaped the versioning, so they count here as
 * fields of 1.0. Ironic's own conversion only handles fields added from 1.22 on; Baton applies
 * the same rule to every version (see docs/baremetal.md, "Data").
 */
import { defineObjectType, f } from '../../objects/index.ts';
import { addedFields, unchanged } from './history.ts';
import { IRONIC_NAMESPACE, timestampFields } from './namespace.ts';
import { TraitList } from './trait.ts';

const nullableString = () => f.string({ nullable: true });
const dict = () => f.flexibleDict({ nullable: true });

export const Node = defineObjectType({
  name: 'Node',
  namespace: IRONIC_NAMESPACE,
  fields: {
    id: f.integer(),
    uuid: f.uuid({ nullable: true }),
    name: nullableString(),
    chassis_id: f.integer({ nullable: true }),
    instance_uuid: f.uuid({ nullable: true }),
    driver: nullableString(),
    driver_info: dict(),
    driver_internal_info: dict(),
    clean_step: dict(),
    deploy_step: dict(),
    raid_config: dict(),
    target_raid_config: dict(),
    instance_info: dict(),
    properties: dict(),
    reservation: nullableString(),
    conductor_affinity: f.integer({ nullable: true }),
    conductor_group: nullableString(),
    power_state: nullableString(),
    target_power_state: nullableString(),
    provision_state: nullableString(),
    provision_updated_at: f.dateTime({ nullable: true }),
    target_provision_state: nullableString(),
    maintenance: f.boolean(),
    maintenance_reason: nullableString(),
    fault: nullableString(),
    console_enabled: f.boolean(),
    last_error: nullableString(),
    resource_class: nullableString(),
    inspection_finished_at: f.dateTime({ nullable: true }),
    inspection_started_at: f.dateTime({ nullable: true }),
    extra: dict(),
    automated_clean: f.boolean({ nullable: true }),
    protected: f.boolean(),
    protected_reason: nullableString(),
    allocation_id: f.integer({ nullable: true }),
    bios_interface: nullableString(),
    boot_interface: nullableString(),
    console_interface: nullableString(),
    deploy_interface: nullableString(),
    inspect_interface: nullableString(),
    management_interface: nullableString(),
    network_interface: nullableString(),
    power_interface: nullableString(),
    raid_interface: nullableString(),
    rescue_interface: nullableString(),
    storage_interface: nullableString(),
    vendor_interface: nullableString(),
    traits: f.object(() => TraitList, { nullable: true }),
    owner: nullableString(),
    lessee: nullableString(),
    description: nullableString(),
    retired: f.boolean({ nullable: true }),
    retired_reason: nullableString(),
    network_data: dict(),
    boot_mode: nullableString(),
    secure_boot: f.boolean({ nullable: true }),
    shard: nullableString(),
    ...timestampFields(),
  },
  history: [
    unchanged('1.0', 'Initial version'),
    addedFields('1.1', 'Added instance_info', { instance_info: null }),
    unchanged('1.2', 'Add get() and get_by_id() and make get_by_uuid() only work with a uuid'),
    unchanged('1.3', 'Add create() and destroy()'),
    unchanged('1.4', 'Add get_by_instance_uuid()'),
    unchanged('1.5', 'Add list()'),
    unchanged('1.6', 'Add reserve() and release()'),
    addedFields('1.7', 'Add conductor_affinity', { conductor_affinity: null }),
    addedFields('1.8', 'Add maintenance_reason', { maintenance_reason: null }),
    addedFields('1.9', 'Add driver_internal_info', { driver_internal_info: null }),
    addedFields('1.10', 'Add name and get_by_name()', { name: null }),
    addedFields('1.11', 'Add clean_step', { clean_step: null }),
    addedFields('1.12', 'Add raid_config and target_raid_config', {
      raid_config: null,
      target_raid_config: null,
    }),
    unchanged('1.13', 'Add touch_provisioning()'),
    unchanged(
      '1.14',
      'Add _validate_property_values() and make create() and save() validate the input of property values',
    ),
    unchanged('1.15', 'Add get_by_port_addresses'),
    addedFields('1.16', 'Add network_interface field', { network_interface: null }),
    addedFields('1.17', 'Add resource_class field', { resource_class: null }),
    unchanged('1.18', 'Add default setting for network_interface'),
    addedFields(
      '1.19',
      'Add fields: boot_interface, console_interface, deploy_interface, inspect_interface, management_interface, power_interface, raid_interface, vendor_interface',
      {
        boot_interface: null,
        console_interface: null,
        deploy_interface: null,
        inspect_interface: null,
        management_interface: null,
        power_interface: null,
        raid_interface: null,
        vendor_interface: null,
      },
    ),
    unchanged('1.20', 'Type of network_interface changed to just nullable string'),
    addedFields('1.21', 'Add storage_interface field', { storage_interface: null }),
    addedFields('1.22', 'Add rescue_interface field', { rescue_interface: null }),
    addedFields('1.23', 'Add traits field', { traits: null }),
    addedFields('1.24', 'Add bios_interface field', { bios_interface: null }),
    addedFields('1.25', 'Add fault field', { fault: null }),
    // A FlexibleDict set to null holds {}, which Ironic writes explicitly.
    addedFields('1.26', 'Add deploy_step field', { deploy_step: {} }),
    // Ironic's default conductor group is "", not None.
    addedFields('1.27', 'Add conductor_group field', { conductor_group: '' }),
    addedFields('1.28', 'Add automated_clean field', { automated_clean: null }),
    addedFields('1.29', 'Add protected and protected_reason fields', {
      protected: false,
      protected_reason: null,
    }),
    addedFields('1.30', 'Add owner field', { owner: null }),
    addedFields('1.31', 'Add allocation_id field', { allocation_id: null }),
    addedFields('1.32', 'Add description field', { description: null }),
    addedFields('1.33', 'Add retired and retired_reason fields', {
      retired: false,
      retired_reason: null,
    }),
    addedFields('1.34', 'Add lessee field', { lessee: null }),
    addedFields('1.35', 'Add network_data field', { network_data: {} }),
    addedFields('1.36', 'Add boot_mode and secure_boot fields', {
      boot_mode: null,
      secure_boot: null,
    }),
    addedFields('1.37', 'Add shard field', { shard: null }),
  ],
});

export type NodeObject = ReturnType<typeof Node.create>;
