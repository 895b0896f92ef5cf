/**
 * NodeInventory 1.0, new in Ironic 21.4 (antelope): the hardware inventory and the inspection
 * plugin data of one node, one row of `node_inventory` per node (API 1.81,
 * `GET /v1/nodes/{node}/inventory`). New in this release, so the object-version check of
 * `db upgrade` leaves its table out (Ironic's NEW_MODELS) until the next release.
 */
import { defineObjectType, f } from '../../objects/index.ts';
import { unchanged } from './history.ts';
import { IRONIC_NAMESPACE, timestampFields } from './namespace.ts';

export const NodeInventory = defineObjectType({
  name: 'NodeInventory',
  namespace: IRONIC_NAMESPACE,
  fields: {
    id: f.integer(),
    node_id: f.integer({ nullable: true }),
    inventory_data: f.flexibleDict({ nullable: true }),
    plugin_data: f.flexibleDict({ nullable: true }),
    ...timestampFields(),
  },
  history: [unchanged('1.0', 'Initial version')],
});

export type NodeInventoryObject = ReturnType<typeof NodeInventory.create>;
