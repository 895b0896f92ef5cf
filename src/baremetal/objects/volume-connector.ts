/**
 * VolumeConnector 1.0, as Ironic 21.4 has it (new in Baton's antelope; Ironic's since pike): how
 * a node reaches its volumes (an iSCSI initiator IQN, a WWPN...), API 1.32. A connector's type
 * and connector ID are unique across nodes.
 */
import { defineObjectType, f } from '../../objects/index.ts';
import { unchanged } from './history.ts';
import { IRONIC_NAMESPACE, timestampFields } from './namespace.ts';

export const VolumeConnector = defineObjectType({
  name: 'VolumeConnector',
  namespace: IRONIC_NAMESPACE,
  fields: {
    id: f.integer(),
    uuid: f.uuid({ nullable: true }),
    node_id: f.integer({ nullable: true }),
    type: f.string({ nullable: true }),
    connector_id: f.string({ nullable: true }),
    extra: f.flexibleDict({ nullable: true }),
    ...timestampFields(),
  },
  history: [unchanged('1.0', 'Initial version')],
});

export type VolumeConnectorObject = ReturnType<typeof VolumeConnector.create>;
