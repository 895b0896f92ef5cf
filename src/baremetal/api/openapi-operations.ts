/**
 * The bare metal API's operations for its OpenAPI documents (src/microversion/openapi.ts):
 * each route of routes.ts with the gate it answers from, its parameters with the gates the
 * handlers check them with, and the request schemas the handlers validate with. Node, port
 * and port group bodies are exact per version, built from the same field-gate tables the
 * handlers hide fields with (NODE_FIELD_FEATURES…). test/baremetal/api/openapi.test.ts checks
 * this list against the registered routes and real answers against these schemas.
 */
import {
  compareVersions,
  type FeatureGate,
  type JsonSchemaObject,
  type OpenApiOperation,
  type OpenApiService,
  openApiDocument,
  type QueryParameter,
  schemaRef,
  type Version,
} from '../../microversion/index.ts';
import { CHASSIS_SCHEMA } from './chassis.ts';
import { DRIVER_FIELDS } from './driver-views.ts';
import {
  type BaremetalFeature,
  FEATURES,
  NODE_FIELD_FEATURES,
  PORT_FIELD_FEATURES,
  PORTGROUP_FIELD_FEATURES,
} from './features.ts';
import { NODE_SCHEMA } from './node-schemas.ts';
import { nodeStatesFields } from './node-states.ts';
import { TRAITS_BODY_SCHEMA } from './node-traits.ts';
import { NODE_QUERY_FIELDS } from './node-view.ts';
import { VIF_SCHEMA } from './node-vifs.ts';
import { EVENT_OPERATIONS, RAMDISK_OPERATIONS } from './openapi-agent.ts';
import {
  ALLOCATION_OPERATIONS,
  allocationSchema,
  DEPLOY_TEMPLATE_BODY,
  DEPLOY_TEMPLATE_OPERATIONS,
} from './openapi-allocations.ts';
import { NODE_ACTION_OPERATIONS, VENDOR_PASSTHRU_OPERATIONS } from './openapi-node-actions.ts';
import { VOLUME_CONNECTOR_BODY, VOLUME_OPERATIONS, VOLUME_TARGET_BODY } from './openapi-volume.ts';
import { PORTGROUP_SCHEMA } from './portgroups.ts';
import { PORT_SCHEMA } from './ports.ts';
import { PATCH_SCHEMA } from './schema-args.ts';
import { BAREMETAL_VERSIONS } from './versions.ts';

const atLeast = (version: Version, gate: Version) => compareVersions(version, gate) >= 0;

const links = {
  type: 'array',
  items: { type: 'object', properties: { href: { type: 'string' }, rel: { type: 'string' } } },
};

/** The fields of a body at `version`: those without a gate, and those whose gate is reached. */
function shownFields(
  fields: readonly string[],
  gates: Readonly<Record<string, BaremetalFeature>>,
  version: Version,
): string[] {
  return fields.filter((field) => {
    const gate = gates[field];
    return gate === undefined || atLeast(version, FEATURES[gate]);
  });
}

/**
 * A body that has at most these fields (`fields=` may ask for fewer) and nothing else; values
 * are left open (Ironic's fields are mostly free-form or nullable).
 */
function fieldsOnly(fields: readonly string[], described?: Record<string, JsonSchemaObject>) {
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((field) => [field, described?.[field] ?? {}])),
    additionalProperties: false,
  };
}

/** A node as node-view.ts shows it at `version`. */
function node(version: Version): JsonSchemaObject {
  const fields = [
    'uuid',
    'created_at',
    'updated_at',
    ...shownFields(NODE_QUERY_FIELDS, NODE_FIELD_FEATURES, version),
    'links',
    'chassis_uuid',
    'ports',
  ];
  const later: [string, FeatureGate][] = [
    ['conductor', FEATURES.conductors],
    ['allocation_uuid', FEATURES.allocations],
    ['states', FEATURES.statesAndPropertiesLinks],
    ['portgroups', FEATURES.portgroupSubresources],
    ['volume', FEATURES.volume],
  ];
  for (const [field, gate] of later) if (atLeast(version, gate)) fields.push(field);
  return fieldsOnly([...new Set(fields)], {
    links,
    ports: links,
    states: links,
    portgroups: links,
    volume: links,
  });
}

const PORT_FIELDS = [
  'uuid',
  'created_at',
  'updated_at',
  'address',
  'extra',
  'internal_info',
  'is_smartnic',
  'local_link_connection',
  'physical_network',
  'pxe_enabled',
  'node_uuid',
  'links',
  'portgroup_uuid',
];
const port = (version: Version) =>
  fieldsOnly(shownFields(PORT_FIELDS, PORT_FIELD_FEATURES, version), { links });

const PORTGROUP_FIELDS = [
  'uuid',
  'created_at',
  'updated_at',
  'address',
  'extra',
  'internal_info',
  'mode',
  'name',
  'properties',
  'standalone_ports_supported',
  'node_uuid',
  'links',
  'ports',
];
const portgroup = (version: Version) =>
  fieldsOnly(shownFields(PORTGROUP_FIELDS, PORTGROUP_FIELD_FEATURES, version), {
    links,
    ports: links,
  });

const chassis = fieldsOnly([
  'uuid',
  'created_at',
  'updated_at',
  'description',
  'extra',
  'links',
  'nodes',
]);
const conductor = fieldsOnly([
  'hostname',
  'conductor_group',
  'drivers',
  'links',
  'alive',
  'created_at',
  'updated_at',
]);

/** A driver: its fields (the interfaces ones with `detail`, those of the version's kinds). */
const driver = fieldsOnly(DRIVER_FIELDS, { links, properties: links });

/** `{<name>: [items], next?}`: a page, with the link to the next when it is full. */
function page(name: string, item: string): JsonSchemaObject {
  return {
    type: 'object',
    properties: { [name]: { type: 'array', items: schemaRef(item) }, next: { type: 'string' } },
    required: [name],
    additionalProperties: false,
  };
}

function nodeStates(version: Version): JsonSchemaObject {
  const fields = nodeStatesFields((gate) => atLeast(version, gate));
  return { ...fieldsOnly(fields), required: fields };
}

/** Parameters every list takes: paging, and `fields` (1.8) and `detail` (1.43) where asked. */
function pageParameters(
  options: { fields?: FeatureGate; detail?: FeatureGate } = {},
): QueryParameter[] {
  const parameters: QueryParameter[] = [
    { name: 'marker', description: 'The last item of the previous page (a UUID).' },
    {
      name: 'limit',
      description: 'Items per page (at most `[api] max_limit`).',
      schema: { type: 'integer' },
    },
    { name: 'sort_key', description: 'The field to sort by.' },
    { name: 'sort_dir', description: '`asc` or `desc`.', schema: { enum: ['asc', 'desc'] } },
  ];
  if (options.fields !== undefined) {
    parameters.push({
      name: 'fields',
      since: options.fields,
      description: 'Comma-separated fields to show.',
    });
  }
  if (options.detail !== undefined) {
    parameters.push({
      name: 'detail',
      since: options.detail,
      description: 'Show every field (not with `fields`).',
      schema: { type: 'boolean' },
    });
  }
  return parameters;
}

const boolean = { type: 'boolean' };

/** The node list's filters, each from the gate node-list.ts checks it with. */
const NODE_FILTERS: QueryParameter[] = [
  { name: 'chassis_uuid', description: 'Nodes of this chassis.' },
  { name: 'instance_uuid', description: 'The node of this instance.' },
  { name: 'associated', description: 'With (true) or without an instance.', schema: boolean },
  { name: 'maintenance', description: 'In maintenance or not.', schema: boolean },
  { name: 'retired', description: 'Retired or not.', schema: boolean },
  {
    name: 'provision_state',
    since: FEATURES.provisionStateFilter,
    description: 'In this provision state.',
  },
  { name: 'driver', since: FEATURES.driverFilter, description: 'With this driver.' },
  { name: 'resource_class', since: FEATURES.resourceClass, description: 'Of this resource class.' },
  { name: 'fault', since: FEATURES.nodeFault, description: 'With this fault.' },
  {
    name: 'conductor_group',
    since: FEATURES.conductorGroup,
    description: 'In this conductor group.',
  },
  { name: 'owner', since: FEATURES.nodeOwner, description: 'Owned by this project.' },
  { name: 'description_contains', description: 'Whose description contains this text.' },
  { name: 'lessee', since: FEATURES.nodeLessee, description: 'Leased to this project.' },
  { name: 'project', description: 'Owned by or leased to this project.' },
  {
    name: 'shard',
    since: FEATURES.nodeShard,
    description: 'In one of these shards (comma-separated).',
  },
  {
    name: 'sharded',
    since: FEATURES.nodeShard,
    description: 'With a shard or not.',
    schema: boolean,
  },
];
const CONDUCTOR_FILTER: QueryParameter = {
  name: 'conductor',
  since: FEATURES.conductors,
  description: 'Served by this conductor host.',
};

const NODE_LIST_QUERY = [
  ...pageParameters({ fields: FEATURES.fieldsSelector, detail: FEATURES.detailQuery }),
  ...NODE_FILTERS,
  CONDUCTOR_FILTER,
];
const NODE_DETAIL_QUERY = [...pageParameters(), ...NODE_FILTERS, CONDUCTOR_FILTER];

const PORT_FILTERS: QueryParameter[] = [
  { name: 'node', description: 'Ports of this node (UUID, or name from 1.5).' },
  { name: 'node_uuid', description: 'Ports of this node.' },
  { name: 'address', description: 'The port with this MAC address.' },
  {
    name: 'portgroup',
    since: FEATURES.portgroupSubresources,
    description: 'Ports of this port group.',
  },
  { name: 'shard', since: FEATURES.nodeShard, description: 'Ports of nodes in these shards.' },
];
const PORTGROUP_FILTERS: QueryParameter[] = [
  { name: 'node', description: 'Port groups of this node.' },
  { name: 'address', description: 'The port group with this MAC address.' },
];

const NODE = { node: 'A node UUID, or its name from 1.5.' };
const PORT = { port: 'A port UUID.' };
const PORTGROUP = { portgroup: 'A port group UUID or name.' };
const CHASSIS = { chassis_uuid: 'A chassis UUID.' };
const FIELDS_1_8: QueryParameter = {
  name: 'fields',
  since: FEATURES.fieldsSelector,
  description: 'Comma-separated fields to show.',
};

const ok = (description: string, schema?: OpenApiOperation['responses'][number]['schema']) => ({
  status: '200',
  description,
  ...(schema === undefined ? {} : { schema }),
});
const accepted = (description: string) => ({ status: '202', description });
const noContent = (description: string) => ({ status: '204', description });
const created = (description: string, schema: OpenApiOperation['responses'][number]['schema']) => ({
  status: '201',
  description,
  schema,
});
const described = (fields: readonly string[]) => ({
  type: 'object',
  properties: Object.fromEntries(fields.map((f) => [f, {}])),
});

export const BAREMETAL_OPERATIONS: readonly OpenApiOperation[] = [
  {
    method: 'get',
    path: '/',
    tag: 'versions',
    summary: 'The API versions (answered at any version header).',
    responses: [
      ok(
        'The versions and the default one.',
        described(['name', 'description', 'versions', 'default_version']),
      ),
    ],
  },
  {
    method: 'get',
    path: '/v1',
    tag: 'versions',
    summary: 'The v1 API: its version and links to its resources.',
    responses: [
      ok('Links to the resources at this version.', (v) =>
        described([
          'id',
          'links',
          'media_types',
          'chassis',
          'nodes',
          'ports',
          'drivers',
          'version',
          ...(atLeast(v, FEATURES.portgroups) ? ['portgroups'] : []),
          ...(atLeast(v, FEATURES.volume) ? ['volume'] : []),
          ...(atLeast(v, FEATURES.conductors) ? ['conductors'] : []),
          ...(atLeast(v, FEATURES.allocations) ? ['allocations'] : []),
          ...(atLeast(v, FEATURES.deployTemplates) ? ['deploy_templates'] : []),
          ...(atLeast(v, FEATURES.nodeShard) ? ['shards'] : []),
        ]),
      ),
    ],
  },
  {
    method: 'get',
    path: '/openapi/{document}',
    tag: 'versions',
    summary: 'The OpenAPI document of a microversion (Baton only).',
    pathParameters: { document: 'A microversion and `.json`, such as `1.82.json`.' },
    responses: [ok('This kind of document, for the version asked for.', { type: 'object' })],
  },
  // Chassis.
  {
    method: 'get',
    path: '/v1/chassis',
    tag: 'chassis',
    summary: 'List chassis.',
    query: pageParameters({ fields: FEATURES.fieldsSelector, detail: FEATURES.detailQuery }),
    responses: [ok('A page of chassis.', page('chassis', 'Chassis'))],
  },
  {
    method: 'post',
    path: '/v1/chassis',
    tag: 'chassis',
    summary: 'Create a chassis.',
    body: CHASSIS_SCHEMA,
    responses: [created('The chassis.', schemaRef('Chassis'))],
  },
  {
    method: 'get',
    path: '/v1/chassis/detail',
    tag: 'chassis',
    summary: 'List chassis with every field.',
    query: pageParameters(),
    responses: [ok('A page of chassis.', page('chassis', 'Chassis'))],
  },
  {
    method: 'get',
    path: '/v1/chassis/{chassis_uuid}',
    tag: 'chassis',
    summary: 'Show a chassis.',
    pathParameters: CHASSIS,
    query: [FIELDS_1_8],
    responses: [ok('The chassis.', schemaRef('Chassis'))],
  },
  {
    method: 'patch',
    path: '/v1/chassis/{chassis_uuid}',
    tag: 'chassis',
    summary: 'Update a chassis (JSON patch).',
    pathParameters: CHASSIS,
    body: schemaRef('JsonPatch'),
    responses: [ok('The chassis as updated.', schemaRef('Chassis'))],
  },
  {
    method: 'delete',
    path: '/v1/chassis/{chassis_uuid}',
    tag: 'chassis',
    summary: 'Delete a chassis without nodes.',
    pathParameters: CHASSIS,
    responses: [noContent('Deleted.')],
  },
  {
    method: 'get',
    path: '/v1/chassis/{chassis_uuid}/nodes',
    tag: 'chassis',
    summary: 'The nodes of a chassis.',
    pathParameters: CHASSIS,
    query: NODE_LIST_QUERY,
    responses: [ok('A page of nodes.', page('nodes', 'Node'))],
  },
  {
    method: 'get',
    path: '/v1/chassis/{chassis_uuid}/nodes/detail',
    tag: 'chassis',
    summary: 'The nodes of a chassis, every field.',
    pathParameters: CHASSIS,
    query: NODE_DETAIL_QUERY,
    responses: [ok('A page of nodes.', page('nodes', 'Node'))],
  },
  // Drivers.
  {
    method: 'get',
    path: '/v1/drivers',
    tag: 'drivers',
    summary: 'The drivers (hardware types) of live conductors.',
    query: [
      { name: 'type', since: FEATURES.dynamicDrivers, description: '`classic` or `dynamic`.' },
      {
        name: 'detail',
        since: FEATURES.dynamicDrivers,
        description: 'Every field.',
        schema: boolean,
      },
      {
        name: 'fields',
        since: FEATURES.driverFieldsSelector,
        description: 'Comma-separated fields to show.',
      },
    ],
    responses: [
      ok('The drivers.', {
        type: 'object',
        properties: { drivers: { type: 'array', items: schemaRef('Driver') } },
        required: ['drivers'],
        additionalProperties: false,
      }),
    ],
  },
  {
    method: 'get',
    path: '/v1/drivers/{driver_name}',
    tag: 'drivers',
    summary: 'Show a driver.',
    pathParameters: { driver_name: 'A hardware type name.' },
    query: [
      {
        name: 'fields',
        since: FEATURES.driverFieldsSelector,
        description: 'Comma-separated fields to show.',
      },
    ],
    responses: [ok('The driver.', schemaRef('Driver'))],
  },
  {
    method: 'get',
    path: '/v1/drivers/{driver_name}/properties',
    tag: 'drivers',
    summary: "The driver's properties (driver_info keys) and their descriptions.",
    pathParameters: { driver_name: 'A hardware type name.' },
    responses: [
      ok('Property names to descriptions.', {
        type: 'object',
        additionalProperties: { type: 'string' },
      }),
    ],
  },
  {
    method: 'get',
    path: '/v1/drivers/{driver_name}/raid/logical_disk_properties',
    since: FEATURES.raidConfig,
    tag: 'drivers',
    summary: "The driver's RAID logical disk properties.",
    pathParameters: { driver_name: 'A hardware type name.' },
    responses: [
      ok('Property names to descriptions.', {
        type: 'object',
        additionalProperties: { type: 'string' },
      }),
    ],
  },
  // Conductors.
  {
    method: 'get',
    path: '/v1/conductors',
    since: FEATURES.conductors,
    tag: 'conductors',
    summary: 'List conductors.',
    query: pageParameters({ fields: FEATURES.conductors, detail: FEATURES.conductors }),
    responses: [ok('A page of conductors.', page('conductors', 'Conductor'))],
  },
  {
    method: 'get',
    path: '/v1/conductors/{hostname}',
    since: FEATURES.conductors,
    tag: 'conductors',
    summary: 'Show a conductor.',
    pathParameters: { hostname: 'The conductor host name.' },
    query: [{ ...FIELDS_1_8, since: FEATURES.conductors }],
    responses: [ok('The conductor.', schemaRef('Conductor'))],
  },
  // Nodes.
  {
    method: 'get',
    path: '/v1/nodes',
    tag: 'nodes',
    summary: 'List nodes (default fields, `fields`, or `detail`).',
    query: NODE_LIST_QUERY,
    responses: [ok('A page of nodes.', page('nodes', 'Node'))],
  },
  {
    method: 'post',
    path: '/v1/nodes',
    tag: 'nodes',
    summary: 'Create a node.',
    body: NODE_SCHEMA,
    responses: [created('The node; the location header names it.', schemaRef('Node'))],
  },
  {
    method: 'get',
    path: '/v1/nodes/detail',
    tag: 'nodes',
    summary: 'List nodes with every field.',
    query: NODE_DETAIL_QUERY,
    responses: [ok('A page of nodes.', page('nodes', 'Node'))],
  },
  {
    method: 'get',
    path: '/v1/nodes/validate',
    tag: 'nodes',
    summary: "Validate a node's driver interfaces (`?node=`).",
    query: [
      { name: 'node', description: 'A node UUID or name.' },
      { name: 'node_uuid', description: 'A node UUID.' },
    ],
    responses: [ok('Per interface: `result` and `reason`.', { type: 'object' })],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}',
    tag: 'nodes',
    summary: 'Show a node.',
    pathParameters: NODE,
    query: [FIELDS_1_8],
    responses: [ok('The node.', schemaRef('Node'))],
  },
  {
    method: 'patch',
    path: '/v1/nodes/{node}',
    tag: 'nodes',
    summary: 'Update a node (JSON patch).',
    pathParameters: NODE,
    query: [
      {
        name: 'reset_interfaces',
        since: FEATURES.resetInterfaces,
        description: 'Reset the interfaces to the new driver’s defaults.',
        schema: boolean,
      },
    ],
    body: schemaRef('JsonPatch'),
    responses: [ok('The node as updated.', schemaRef('Node'))],
  },
  {
    method: 'delete',
    path: '/v1/nodes/{node}',
    tag: 'nodes',
    summary: 'Delete a node.',
    pathParameters: NODE,
    responses: [noContent('Deleted.')],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/validate',
    tag: 'nodes',
    summary: "Validate a node's driver interfaces.",
    pathParameters: NODE,
    responses: [ok('Per interface: `result` and `reason`.', { type: 'object' })],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/states',
    tag: 'node states',
    summary: "A node's power and provision states.",
    pathParameters: NODE,
    responses: [ok('The states.', nodeStates)],
  },
  {
    method: 'put',
    path: '/v1/nodes/{node}/states/power',
    tag: 'node states',
    summary: 'Change the power state.',
    pathParameters: NODE,
    body: (v) => ({
      type: 'object',
      properties: {
        target: { type: 'string' },
        ...(atLeast(v, FEATURES.softPowerOff) ? { timeout: { type: 'integer', minimum: 1 } } : {}),
      },
      required: ['target'],
    }),
    responses: [accepted('Accepted; the location header names the states.')],
  },
  {
    method: 'put',
    path: '/v1/nodes/{node}/states/provision',
    tag: 'node states',
    summary: 'Move the node through its provision states (a verb as `target`).',
    pathParameters: NODE,
    body: (v) => ({
      type: 'object',
      properties: {
        target: { type: 'string' },
        configdrive: { type: ['object', 'string', 'null'] },
        ...(atLeast(v, FEATURES.manualClean) ? { clean_steps: { type: ['array', 'null'] } } : {}),
        ...(atLeast(v, FEATURES.rescue) ? { rescue_password: { type: 'string' } } : {}),
        ...(atLeast(v, FEATURES.deploySteps) ? { deploy_steps: { type: ['array', 'null'] } } : {}),
        ...(atLeast(v, FEATURES.cleanDisableRamdisk) ? { disable_ramdisk: boolean } : {}),
      },
      required: ['target'],
    }),
    responses: [accepted('Accepted; the location header names the states.')],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/management/boot_device',
    tag: 'node management',
    summary: "The node's boot device.",
    pathParameters: NODE,
    responses: [ok('`boot_device` and `persistent`.', described(['boot_device', 'persistent']))],
  },
  {
    method: 'put',
    path: '/v1/nodes/{node}/management/boot_device',
    tag: 'node management',
    summary: 'Set the boot device.',
    pathParameters: NODE,
    body: {
      type: 'object',
      properties: { boot_device: { type: 'string' }, persistent: boolean },
      required: ['boot_device'],
    },
    responses: [noContent('Set.')],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/management/boot_device/supported',
    tag: 'node management',
    summary: 'The boot devices the node supports.',
    pathParameters: NODE,
    responses: [ok('The devices.', described(['supported_boot_devices']))],
  },
  {
    method: 'put',
    path: '/v1/nodes/{node}/maintenance',
    tag: 'node management',
    summary: 'Put the node in maintenance.',
    pathParameters: NODE,
    body: { type: 'object', properties: { reason: { type: 'string' } } },
    bodyOptional: true,
    responses: [accepted('Accepted.')],
  },
  {
    method: 'delete',
    path: '/v1/nodes/{node}/maintenance',
    tag: 'node management',
    summary: 'Take the node out of maintenance.',
    pathParameters: NODE,
    responses: [accepted('Accepted.')],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/traits',
    since: FEATURES.nodeTraits,
    tag: 'node traits',
    summary: "The node's traits.",
    pathParameters: NODE,
    responses: [
      ok('The traits.', {
        type: 'object',
        properties: { traits: { type: 'array', items: { type: 'string' } } },
        required: ['traits'],
        additionalProperties: false,
      }),
    ],
  },
  {
    method: 'put',
    path: '/v1/nodes/{node}/traits',
    since: FEATURES.nodeTraits,
    tag: 'node traits',
    summary: "Replace the node's traits.",
    pathParameters: NODE,
    body: TRAITS_BODY_SCHEMA,
    responses: [noContent('Replaced.')],
  },
  {
    method: 'delete',
    path: '/v1/nodes/{node}/traits',
    since: FEATURES.nodeTraits,
    tag: 'node traits',
    summary: "Remove all the node's traits.",
    pathParameters: NODE,
    responses: [noContent('Removed.')],
  },
  {
    method: 'put',
    path: '/v1/nodes/{node}/traits/{trait}',
    since: FEATURES.nodeTraits,
    tag: 'node traits',
    summary: 'Add one trait (no body).',
    pathParameters: { ...NODE, trait: 'A CUSTOM_ or standard trait.' },
    responses: [noContent('Added; the location header names it.')],
  },
  {
    method: 'delete',
    path: '/v1/nodes/{node}/traits/{trait}',
    since: FEATURES.nodeTraits,
    tag: 'node traits',
    summary: 'Remove one trait.',
    pathParameters: { ...NODE, trait: 'A trait of the node.' },
    responses: [noContent('Removed.')],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/vifs',
    since: FEATURES.vifs,
    tag: 'node vifs',
    summary: 'The VIFs attached to the node.',
    pathParameters: NODE,
    responses: [ok('`vifs`: a list of `{id}`.', described(['vifs']))],
  },
  {
    method: 'post',
    path: '/v1/nodes/{node}/vifs',
    since: FEATURES.vifs,
    tag: 'node vifs',
    summary: 'Attach a VIF.',
    pathParameters: NODE,
    body: VIF_SCHEMA,
    responses: [noContent('Attached.')],
  },
  {
    method: 'delete',
    path: '/v1/nodes/{node}/vifs/{vif}',
    since: FEATURES.vifs,
    tag: 'node vifs',
    summary: 'Detach a VIF.',
    pathParameters: { ...NODE, vif: 'The VIF id.' },
    responses: [noContent('Detached.')],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/inventory',
    since: FEATURES.nodeInventory,
    tag: 'nodes',
    summary: "The node's inventory from inspection.",
    pathParameters: NODE,
    responses: [ok('`inventory` and `plugin_data`.', described(['inventory', 'plugin_data']))],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/bios',
    since: FEATURES.biosInterface,
    tag: 'node bios',
    summary: "The node's BIOS settings.",
    pathParameters: NODE,
    query: [
      {
        name: 'fields',
        since: FEATURES.biosRegistry,
        description: 'Comma-separated fields to show.',
      },
      {
        name: 'detail',
        since: FEATURES.biosRegistry,
        description: 'Show the registry fields too (not with `fields`).',
        schema: boolean,
      },
    ],
    responses: [ok('`bios`: a list of settings.', described(['bios']))],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/bios/{setting}',
    since: FEATURES.biosInterface,
    tag: 'node bios',
    summary: 'One BIOS setting, under its name (with the registry fields from 1.74).',
    pathParameters: { ...NODE, setting: 'The name of a setting.' },
    responses: [ok('`{<setting>: {...}}`.')],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/history',
    since: FEATURES.nodeHistory,
    tag: 'node history',
    summary: "The node's history of events, oldest first.",
    pathParameters: NODE,
    query: [
      { name: 'marker', description: 'The last event of the previous page (its UUID).' },
      {
        name: 'limit',
        description: 'Events per page (at most `[api] max_limit`).',
        schema: { type: 'integer' },
      },
      {
        name: 'detail',
        description: 'Show `event_type`, `conductor` and `user`, and whole events.',
        schema: boolean,
      },
    ],
    responses: [ok('`history`: a page of events.', described(['history', 'next']))],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/history/{event}',
    since: FEATURES.nodeHistory,
    tag: 'node history',
    summary: 'One event of the history, in detail.',
    pathParameters: { ...NODE, event: 'The UUID of an event.' },
    responses: [
      ok(
        'The event.',
        described([
          'uuid',
          'created_at',
          'severity',
          'event_type',
          'event',
          'conductor',
          'user',
          'links',
        ]),
      ),
    ],
  },
  // Ports.
  {
    method: 'get',
    path: '/v1/ports',
    tag: 'ports',
    summary: 'List ports.',
    query: [
      ...pageParameters({ fields: FEATURES.fieldsSelector, detail: FEATURES.detailQuery }),
      ...PORT_FILTERS,
    ],
    responses: [ok('A page of ports.', page('ports', 'Port'))],
  },
  {
    method: 'post',
    path: '/v1/ports',
    tag: 'ports',
    summary: 'Create a port.',
    body: PORT_SCHEMA,
    responses: [created('The port.', schemaRef('Port'))],
  },
  {
    method: 'get',
    path: '/v1/ports/detail',
    tag: 'ports',
    summary: 'List ports with every field.',
    query: [...pageParameters(), ...PORT_FILTERS],
    responses: [ok('A page of ports.', page('ports', 'Port'))],
  },
  {
    method: 'get',
    path: '/v1/ports/{port}',
    tag: 'ports',
    summary: 'Show a port.',
    pathParameters: PORT,
    query: [FIELDS_1_8],
    responses: [ok('The port.', schemaRef('Port'))],
  },
  {
    method: 'patch',
    path: '/v1/ports/{port}',
    tag: 'ports',
    summary: 'Update a port (JSON patch).',
    pathParameters: PORT,
    body: schemaRef('JsonPatch'),
    responses: [ok('The port as updated.', schemaRef('Port'))],
  },
  {
    method: 'delete',
    path: '/v1/ports/{port}',
    tag: 'ports',
    summary: 'Delete a port.',
    pathParameters: PORT,
    responses: [noContent('Deleted.')],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/ports',
    tag: 'ports',
    summary: 'The ports of a node.',
    pathParameters: NODE,
    query: [
      ...pageParameters({ fields: FEATURES.fieldsSelector, detail: FEATURES.detailQuery }),
      ...PORT_FILTERS,
    ],
    responses: [ok('A page of ports.', page('ports', 'Port'))],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/ports/detail',
    tag: 'ports',
    summary: 'The ports of a node, every field.',
    pathParameters: NODE,
    query: [...pageParameters(), ...PORT_FILTERS],
    responses: [ok('A page of ports.', page('ports', 'Port'))],
  },
  {
    method: 'get',
    path: '/v1/portgroups/{portgroup}/ports',
    since: FEATURES.portgroupSubresources,
    tag: 'ports',
    summary: 'The ports of a port group.',
    pathParameters: PORTGROUP,
    query: [
      ...pageParameters({ fields: FEATURES.fieldsSelector, detail: FEATURES.detailQuery }),
      ...PORT_FILTERS,
    ],
    responses: [ok('A page of ports.', page('ports', 'Port'))],
  },
  {
    method: 'get',
    path: '/v1/portgroups/{portgroup}/ports/detail',
    since: FEATURES.portgroupSubresources,
    tag: 'ports',
    summary: 'The ports of a port group, every field.',
    pathParameters: PORTGROUP,
    query: [...pageParameters(), ...PORT_FILTERS],
    responses: [ok('A page of ports.', page('ports', 'Port'))],
  },
  // Port groups.
  {
    method: 'get',
    path: '/v1/portgroups',
    since: FEATURES.portgroups,
    tag: 'portgroups',
    summary: 'List port groups.',
    query: [
      ...pageParameters({ fields: FEATURES.fieldsSelector, detail: FEATURES.detailQuery }),
      ...PORTGROUP_FILTERS,
    ],
    responses: [ok('A page of port groups.', page('portgroups', 'Portgroup'))],
  },
  {
    method: 'post',
    path: '/v1/portgroups',
    since: FEATURES.portgroups,
    tag: 'portgroups',
    summary: 'Create a port group.',
    body: PORTGROUP_SCHEMA,
    responses: [created('The port group.', schemaRef('Portgroup'))],
  },
  {
    method: 'get',
    path: '/v1/portgroups/detail',
    since: FEATURES.portgroups,
    tag: 'portgroups',
    summary: 'List port groups with every field.',
    query: [...pageParameters(), ...PORTGROUP_FILTERS],
    responses: [ok('A page of port groups.', page('portgroups', 'Portgroup'))],
  },
  {
    method: 'get',
    path: '/v1/portgroups/{portgroup}',
    since: FEATURES.portgroups,
    tag: 'portgroups',
    summary: 'Show a port group.',
    pathParameters: PORTGROUP,
    query: [FIELDS_1_8],
    responses: [ok('The port group.', schemaRef('Portgroup'))],
  },
  {
    method: 'patch',
    path: '/v1/portgroups/{portgroup}',
    since: FEATURES.portgroups,
    tag: 'portgroups',
    summary: 'Update a port group (JSON patch).',
    pathParameters: PORTGROUP,
    body: schemaRef('JsonPatch'),
    responses: [ok('The port group as updated.', schemaRef('Portgroup'))],
  },
  {
    method: 'delete',
    path: '/v1/portgroups/{portgroup}',
    since: FEATURES.portgroups,
    tag: 'portgroups',
    summary: 'Delete a port group.',
    pathParameters: PORTGROUP,
    responses: [noContent('Deleted.')],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/portgroups',
    since: FEATURES.portgroupSubresources,
    tag: 'portgroups',
    summary: 'The port groups of a node.',
    pathParameters: NODE,
    query: [
      ...pageParameters({ fields: FEATURES.fieldsSelector, detail: FEATURES.detailQuery }),
      ...PORTGROUP_FILTERS,
    ],
    responses: [ok('A page of port groups.', page('portgroups', 'Portgroup'))],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/portgroups/detail',
    since: FEATURES.portgroupSubresources,
    tag: 'portgroups',
    summary: 'The port groups of a node, every field.',
    pathParameters: NODE,
    query: [...pageParameters(), ...PORTGROUP_FILTERS],
    responses: [ok('A page of port groups.', page('portgroups', 'Portgroup'))],
  },
  // Shards.
  {
    method: 'get',
    path: '/v1/shards',
    since: FEATURES.nodeShard,
    tag: 'shards',
    summary: 'Every shard with its node count ("None" for nodes without one).',
    responses: [
      ok('The shards, most populated first.', {
        type: 'object',
        properties: {
          shards: {
            type: 'array',
            items: {
              type: 'object',
              properties: { name: { type: 'string' }, count: { type: 'integer' } },
              required: ['name', 'count'],
              additionalProperties: false,
            },
          },
        },
        required: ['shards'],
        additionalProperties: false,
      }),
    ],
  },
  ...NODE_ACTION_OPERATIONS,
  ...VENDOR_PASSTHRU_OPERATIONS,
  ...ALLOCATION_OPERATIONS,
  ...DEPLOY_TEMPLATE_OPERATIONS,
  ...EVENT_OPERATIONS,
  ...RAMDISK_OPERATIONS,
  ...VOLUME_OPERATIONS,
];

const ERROR_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    error_message: {
      type: 'string',
      contentMediaType: 'application/json',
      description:
        'A JSON document as a string: a fault `{"faultcode", "faultstring", "debuginfo"}` ' +
        'or an HTTP error `{"code", "title", "description"}`.',
    },
  },
  required: ['error_message'],
  additionalProperties: false,
};

export const BAREMETAL_OPENAPI: OpenApiService = {
  title: 'Baton bare metal API',
  description:
    'OpenStack-Ironic-compatible bare metal API served by Baton. Generated from its route ' +
    'table, request schemas and features table (`baton openapi --service baremetal`). Paths ' +
    'Baton does not implement (the ramdisk lookup and heartbeat) are absent.',
  versions: BAREMETAL_VERSIONS,
  versionHeader: { name: 'X-OpenStack-Ironic-API-Version', example: (v) => v },
  responseHeaders: {
    'x-openstack-ironic-api-version': 'The microversion of the answer.',
    'x-openstack-ironic-api-minimum-version': 'The lowest microversion served.',
    'x-openstack-ironic-api-maximum-version': 'The highest microversion served.',
    'openstack-request-id': 'The request id.',
  },
  errorSchema: ERROR_SCHEMA,
  schemas: {
    Node: node,
    Port: port,
    Portgroup: portgroup,
    Chassis: chassis,
    Conductor: conductor,
    Driver: driver,
    Allocation: allocationSchema,
    DeployTemplate: DEPLOY_TEMPLATE_BODY,
    VolumeConnector: VOLUME_CONNECTOR_BODY,
    VolumeTarget: VOLUME_TARGET_BODY,
    JsonPatch: PATCH_SCHEMA,
  },
  errorDescription: 'An error as Ironic answers it: `{"error_message": "<JSON string>"}`.',
  operations: BAREMETAL_OPERATIONS,
};

/** The bare metal API's OpenAPI document at `version` (one of BAREMETAL_VERSIONS). */
export function baremetalOpenApi(version: string): JsonSchemaObject {
  return openApiDocument(BAREMETAL_OPENAPI, version);
}
