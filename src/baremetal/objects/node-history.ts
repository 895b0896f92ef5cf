/**
 * NodeHistory 1.0, as Ironic 21.4 has it: one event of a node's history, a row of
 * `node_history` (API 1.78, `GET /v1/nodes/{node}/history`), written by the conductor when a
 * node's operation fails (conductor/node-history.ts). New to Baton in antelope; Ironic's since
 * yoga.
 */
import { defineObjectType, f } from '../../objects/index.ts';
import { unchanged } from './history.ts';
import { IRONIC_NAMESPACE, timestampFields } from './namespace.ts';

export const NodeHistory = defineObjectType({
  name: 'NodeHistory',
  namespace: IRONIC_NAMESPACE,
  fields: {
    id: f.integer(),
    uuid: f.uuid({ nullable: true }),
    conductor: f.string({ nullable: true }),
    event: f.string({ nullable: true }),
    user: f.string({ nullable: true }),
    node_id: f.integer({ nullable: true }),
    event_type: f.string({ nullable: true }),
    severity: f.string({ nullable: true }),
    ...timestampFields(),
  },
  history: [unchanged('1.0', 'Initial version')],
});

export type NodeHistoryObject = ReturnType<typeof NodeHistory.create>;
