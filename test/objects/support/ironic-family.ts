/**
 * The object family of test/fixtures/ovo/ironic_family.py, defined with
 * Baton's objects: Node 1.15 (1.14 for an "old service"), NodeList 1.1, Port
 * 1.12 and Chassis 1.4, with the family's releases. Used by the vector tests
 * and the benchmark.
 */
import {
  defineObjectType,
  f,
  type ObjectNamespace,
  ObjectRegistry,
  type RemotableMethod,
  type VersionedObject,
  type VersionStep,
} from '../../../src/objects/index.ts';
import type { ReleaseMapping } from '../../../src/releases/index.ts';

export const IRONIC_NAMESPACE: ObjectNamespace = { project: 'ironic', serial: 'ironic_object' };

/** created_at / updated_at, which every Ironic object inherits. */
const timestamps = {
  created_at: f.dateTime({ nullable: true }),
  updated_at: f.dateTime({ nullable: true }),
};

const nodeFields = {
  id: f.integer(),
  uuid: f.uuid(),
  name: f.string({ nullable: true }),
  driver: f.string(),
  extra: f.flexibleDict({ nullable: true }),
  properties: f.flexibleDict({ nullable: true }),
  driver_info: f.flexibleDict({ nullable: true }),
  power_state: f.string({ nullable: true }),
  provision_state: f.string({ nullable: true }),
  maintenance: f.boolean(),
  chassis_id: f.integer({ nullable: true }),
  version: f.string({ nullable: true }),
  meta: f.flexibleDict({ nullable: true }),
  ...timestamps,
};

const nodeMethods: Record<string, RemotableMethod> = {
  get: { static: true, params: ['context', 'node_id'] },
  get_by_uuid: { static: true, params: ['context', 'uuid'] },
  list: {
    static: true,
    params: [
      'context',
      { name: 'limit', default: null },
      { name: 'marker', default: null },
      { name: 'sort_key', default: null },
      { name: 'sort_dir', default: null },
      { name: 'filters', default: null },
    ],
  },
  create: { params: [{ name: 'context', default: null }] },
  destroy: { params: [{ name: 'context', default: null }] },
  save: { params: [{ name: 'context', default: null }] },
};

/** Versions 1.0 to 1.13 changed nothing this family models. */
const earlyNodeVersions: VersionStep[] = Array.from({ length: 14 }, (_, minor) => ({
  version: `1.${minor}`,
  note: minor === 0 ? 'Initial version' : 'No change to the fields this family models',
}));

/** Node 1.15: 'meta' replaces the deprecated 'extra' (the rolling-upgrade doc's example). */
const metaStep: VersionStep = {
  version: '1.15',
  note: "Add 'meta', replacing the deprecated 'extra'",
  added: ['meta'],
  upgrade(node) {
    if (node.isSet('extra')) {
      node.assign('meta', node.get('extra'));
      node.assign('extra', null);
    } else if (!node.isSet('meta')) {
      node.assign('meta', {});
    }
  },
  downgrade(node) {
    if (node.isSet('meta')) node.assign('extra', node.get('meta'));
  },
};

export const Node = defineObjectType({
  name: 'Node',
  namespace: IRONIC_NAMESPACE,
  fields: nodeFields,
  history: [...earlyNodeVersions, { version: '1.14', note: 'Baseline of this family' }, metaStep],
  remotable: nodeMethods,
});

/** Node as the old release (1.14) defines it: no 'meta'. */
const { meta: _meta, ...oldNodeFields } = nodeFields;
export const OldNode = defineObjectType({
  name: 'Node',
  namespace: IRONIC_NAMESPACE,
  fields: oldNodeFields,
  history: [...earlyNodeVersions, { version: '1.14', note: 'Baseline of this family' }],
  remotable: nodeMethods,
});

export const NodeList = defineObjectType({
  name: 'NodeList',
  namespace: IRONIC_NAMESPACE,
  fields: { objects: f.listOfObjects(() => Node), ...timestamps },
  history: [
    { version: '1.0', note: 'Node 1.14' },
    { version: '1.1', note: 'Node 1.15' },
  ],
  childVersions: { '1.0': '1.14', '1.1': '1.15' },
  remotable: {
    get_all: { static: true, params: ['context', { name: 'sort_dir', default: 'asc' }] },
  },
});

export const Port = defineObjectType({
  name: 'Port',
  namespace: IRONIC_NAMESPACE,
  fields: {
    id: f.integer(),
    uuid: f.uuid({ nullable: true }),
    node_id: f.integer({ nullable: true }),
    address: f.macAddress({ nullable: true }),
    extra: f.flexibleDict({ nullable: true }),
    local_link_connection: f.flexibleDict({ nullable: true }),
    pxe_enabled: f.boolean({ default: true }),
    is_smartnic: f.boolean({ nullable: true, default: false }),
    physical_network: f.string({ nullable: true }),
    category: f.enum(['network', 'storage'], { nullable: true }),
    name: f.string({ nullable: true }),
    ...timestamps,
  },
  history: Array.from({ length: 13 }, (_, minor) => ({
    version: `1.${minor}`,
    note: `Port 1.${minor}`,
  })),
  remotable: {
    get_by_address: {
      static: true,
      params: ['context', 'address', { name: 'owner', default: null }],
    },
    save: { params: [{ name: 'context', default: null }] },
    ping: {
      params: ['context', { name: 'args', kind: 'rest' }, { name: 'kwargs', kind: 'keywords' }],
    },
  },
});

export const Chassis = defineObjectType({
  name: 'Chassis',
  namespace: IRONIC_NAMESPACE,
  fields: {
    id: f.integer(),
    uuid: f.uuid({ nullable: true }),
    extra: f.flexibleDict({ nullable: true }),
    description: f.string({ nullable: true }),
    tags: f.listOfStrings({ default: [] }),
    ...timestamps,
  },
  history: Array.from({ length: 5 }, (_, minor) => ({
    version: `1.${minor}`,
    note: `Chassis 1.${minor}`,
  })),
  remotable: {
    update_fields: {
      params: [
        { name: 'context', default: null },
        { name: 'force', default: false, kind: 'keyword-only' },
      ],
    },
    get_by_uuid: { static: true, params: ['context', 'uuid'] },
  },
});

export const newRegistry = (): ObjectRegistry =>
  new ObjectRegistry(IRONIC_NAMESPACE, [Node, NodeList, Port, Chassis]);
export const oldRegistry = (): ObjectRegistry =>
  new ObjectRegistry(IRONIC_NAMESPACE, [OldNode, NodeList, Port, Chassis]);

/** The family's releases (ironic_family.RELEASE_MAPPING). */
export const FAMILY_RELEASES: ReleaseMapping = {
  old: { objects: { Node: ['1.14'], NodeList: ['1.0'], Port: ['1.12'], Chassis: ['1.4'] } },
  transition: {
    objects: { Node: ['1.14', '1.15'], NodeList: ['1.0', '1.1'], Port: ['1.12'], Chassis: ['1.4'] },
  },
  bad: { objects: { Node: ['2.0'] } },
  empty: { objects: {} },
  master: { objects: { Node: ['1.15'], NodeList: ['1.1'], Port: ['1.12'], Chassis: ['1.4'] } },
};

export type AnyObject = VersionedObject;
