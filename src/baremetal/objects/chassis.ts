/** Chassis 1.3, as Ironic 21.1 (zed) has it: a group of nodes, with a description and extras. */
import { defineObjectType, f } from '../../objects/index.ts';
import { unchanged } from './history.ts';
import { IRONIC_NAMESPACE, timestampFields } from './namespace.ts';

export const Chassis = defineObjectType({
  name: 'Chassis',
  namespace: IRONIC_NAMESPACE,
  fields: {
    id: f.integer(),
    uuid: f.uuid({ nullable: true }),
    extra: f.flexibleDict({ nullable: true }),
    description: f.string({ nullable: true }),
    ...timestampFields(),
  },
  history: [
    unchanged('1.0', 'Initial version'),
    unchanged('1.1', 'Add get() and get_by_id() and make get_by_uuid() only work with a uuid'),
    unchanged('1.2', 'Add create() and destroy()'),
    unchanged('1.3', 'Add list()'),
  ],
});

export type ChassisObject = ReturnType<typeof Chassis.create>;
