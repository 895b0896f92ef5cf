/**
 * Port 1.11, as Ironic 21.4 (antelope) has it: a NIC of a node, by MAC address. 1.11 added
 * `node_uuid`, the uuid of the port's node: not a column of ports but read with the row (a join
 * on nodes, Ironic's association proxy), so the store never writes it.
 */
import { defineObjectType, f } from '../../objects/index.ts';
import { addedFields, unchanged } from './history.ts';
import { IRONIC_NAMESPACE, timestampFields } from './namespace.ts';
import { tenantVifFrom } from './tenant-vif.ts';

export const Port = defineObjectType({
  name: 'Port',
  namespace: IRONIC_NAMESPACE,
  fields: {
    id: f.integer(),
    uuid: f.uuid({ nullable: true }),
    node_id: f.integer({ nullable: true }),
    node_uuid: f.uuid({ nullable: true }),
    address: f.macAddress({ nullable: true }),
    extra: f.flexibleDict({ nullable: true }),
    local_link_connection: f.flexibleDict({ nullable: true }),
    portgroup_id: f.integer({ nullable: true }),
    pxe_enabled: f.boolean(),
    internal_info: f.flexibleDict({ nullable: true }),
    physical_network: f.string({ nullable: true }),
    is_smartnic: f.boolean({ nullable: true, default: false }),
    name: f.string({ nullable: true }),
    ...timestampFields(),
  },
  history: [
    unchanged('1.0', 'Initial version'),
    unchanged(
      '1.1',
      'Add get() and get_by_id() and get_by_address() and make get_by_uuid() only work with a uuid',
    ),
    unchanged('1.2', 'Add create() and destroy()'),
    unchanged('1.3', 'Add list()'),
    unchanged('1.4', 'Add list_by_node_id()'),
    // pxe_enabled is not nullable; the ports table defaults it to true.
    addedFields(
      '1.5',
      'Add list_by_portgroup_id() and new fields local_link_connection, portgroup_id and pxe_enabled',
      { local_link_connection: null, portgroup_id: null, pxe_enabled: true },
    ),
    addedFields('1.6', 'Add internal_info field', { internal_info: null }),
    addedFields('1.7', 'Add physical_network field', { physical_network: null }),
    unchanged(
      '1.8',
      "Migrate/copy extra['vif_port_id'] to internal_info['tenant_vif_port_id'] (not an explicit db change)",
    ),
    addedFields('1.9', 'Add support for Smart NIC port', { is_smartnic: false }),
    addedFields('1.10', 'Add name field', { name: null }),
    addedFields('1.11', 'Add node_uuid field', { node_uuid: null }),
  ],
  onConversion: tenantVifFrom('1.8'),
});

export type PortObject = ReturnType<typeof Port.create>;
