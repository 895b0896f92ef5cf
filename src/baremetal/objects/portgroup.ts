/**
 * Portgroup 1.5, as Ironic 21.4 (antelope) has it: a bond of a node's ports. 1.5 added
 * `node_uuid`, read with the row as Port's is (never a column of portgroups).
 */
import { defineObjectType, f } from '../../objects/index.ts';
import { addedFields, unchanged } from './history.ts';
import { IRONIC_NAMESPACE, timestampFields } from './namespace.ts';
import { tenantVifFrom } from './tenant-vif.ts';

export const Portgroup = defineObjectType({
  name: 'Portgroup',
  namespace: IRONIC_NAMESPACE,
  fields: {
    id: f.integer(),
    uuid: f.uuid({ nullable: true }),
    name: f.string({ nullable: true }),
    node_id: f.integer({ nullable: true }),
    node_uuid: f.uuid({ nullable: true }),
    address: f.macAddress({ nullable: true }),
    extra: f.flexibleDict({ nullable: true }),
    internal_info: f.flexibleDict({ nullable: true }),
    standalone_ports_supported: f.boolean(),
    mode: f.string({ nullable: true }),
    properties: f.flexibleDict({ nullable: true }),
    ...timestampFields(),
  },
  history: [
    unchanged('1.0', 'Initial version'),
    addedFields('1.1', 'Add internal_info field', { internal_info: null }),
    // Not nullable; the portgroups table defaults it to true.
    addedFields('1.2', 'Add standalone_ports_supported field', {
      standalone_ports_supported: true,
    }),
    addedFields('1.3', 'Add mode and properties fields', { mode: null, properties: null }),
    unchanged(
      '1.4',
      "Migrate/copy extra['vif_port_id'] to internal_info['tenant_vif_port_id'] (not an explicit db change)",
    ),
    addedFields('1.5', 'Add node_uuid field', { node_uuid: null }),
  ],
  onConversion: tenantVifFrom('1.4'),
});

export type PortgroupObject = ReturnType<typeof Portgroup.create>;
