/**
 * VolumeTarget 1.0, as Ironic 21.4 has it (new in Baton's antelope; Ironic's since pike): a
 * volume a node boots from or attaches (API 1.32). A node has one target per boot index.
 */
import { defineObjectType, f } from '../../objects/index.ts';
import { unchanged } from './history.ts';
import { IRONIC_NAMESPACE, timestampFields } from './namespace.ts';

export const VolumeTarget = defineObjectType({
  name: 'VolumeTarget',
  namespace: IRONIC_NAMESPACE,
  fields: {
    id: f.integer(),
    uuid: f.uuid({ nullable: true }),
    node_id: f.integer({ nullable: true }),
    volume_type: f.string({ nullable: true }),
    properties: f.flexibleDict({ nullable: true }),
    boot_index: f.integer({ nullable: true }),
    volume_id: f.string({ nullable: true }),
    extra: f.flexibleDict({ nullable: true }),
    ...timestampFields(),
  },
  history: [unchanged('1.0', 'Initial version')],
});

export type VolumeTargetObject = ReturnType<typeof VolumeTarget.create>;
