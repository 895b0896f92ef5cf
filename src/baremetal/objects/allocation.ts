/**
 * Allocation 1.1, as Ironic 21.4 has it (new in Baton's antelope; Ironic's since stein): a
 * request for a node of a resource class, with traits and candidate nodes, that a conductor
 * fulfils by associating one available node (API 1.52). 1.1 added `owner` (API 1.60).
 * `conductor_affinity` is the conductor that last handled it, an internal field the API never
 * shows.
 */
import { defineObjectType, f } from '../../objects/index.ts';
import { addedFields, unchanged } from './history.ts';
import { IRONIC_NAMESPACE, timestampFields } from './namespace.ts';

/** The states of an allocation (Ironic's `states.ALLOCATING`, `ACTIVE`, `ERROR`). */
export const AllocationState = {
  ALLOCATING: 'allocating',
  ACTIVE: 'active',
  ERROR: 'error',
} as const;

export const Allocation = defineObjectType({
  name: 'Allocation',
  namespace: IRONIC_NAMESPACE,
  fields: {
    id: f.integer(),
    uuid: f.uuid({ nullable: true }),
    name: f.string({ nullable: true }),
    node_id: f.integer({ nullable: true }),
    state: f.string({ nullable: true }),
    last_error: f.string({ nullable: true }),
    resource_class: f.string({ nullable: true }),
    traits: f.listOfStrings({ nullable: true }),
    candidate_nodes: f.listOfStrings({ nullable: true }),
    extra: f.flexibleDict({ nullable: true }),
    conductor_affinity: f.integer({ nullable: true }),
    owner: f.string({ nullable: true }),
    ...timestampFields(),
  },
  history: [
    unchanged('1.0', 'Initial version'),
    addedFields('1.1', 'Add owner field', { owner: null }),
  ],
});

export type AllocationObject = ReturnType<typeof Allocation.create>;
