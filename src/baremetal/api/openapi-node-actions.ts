/**
 * The OpenAPI operations of the node actions (conductor RPC 1.4), for openapi-operations.ts:
 * the console (every version), RAID's target configuration (1.12; the logical disk schema as
 * its body), inject NMI (1.29), boot mode and secure boot (1.76) and
 * indicators (no gate: the real 21.4 controller checks none, though its reference says 1.63),
 * with the bodies node-console.ts, node-boot-mode.ts and node-management.ts bind; and vendor
 * passthru of nodes and hardware types (vendor-passthru.ts), every version.
 */
import type { JsonSchemaObject, OpenApiOperation } from '../../microversion/index.ts';
import { RAID_CONFIG_SCHEMA } from '../drivers/raid-logical-disks.ts';
import { FEATURES } from './features.ts';
import { TARGET_BOOT_MODES } from './node-boot-mode.ts';

const NODE = { node: 'A node UUID, or its name from 1.5.' };
const INDICATOR = {
  ...NODE,
  indicator: 'An indicator as `<name>@<component>` (e.g. `led@system`).',
};
const links = {
  type: 'array',
  items: { type: 'object', properties: { href: { type: 'string' }, rel: { type: 'string' } } },
};
const ok = (description: string, schema: JsonSchemaObject) => ({
  status: '200',
  description,
  schema,
});
const accepted = (description: string) => ({ status: '202', description });
const noContent = (description: string) => ({ status: '204', description });

const CONSOLE: JsonSchemaObject = {
  type: 'object',
  properties: {
    console_enabled: { type: 'boolean' },
    console_info: { type: ['object', 'null'] },
  },
  required: ['console_enabled', 'console_info'],
  additionalProperties: false,
};

const INDICATOR_ITEM: JsonSchemaObject = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    component: { type: 'string' },
    readonly: { type: 'boolean' },
    states: { type: 'array', items: { type: 'string' } },
    links,
  },
  required: ['name', 'component', 'readonly', 'states', 'links'],
  additionalProperties: false,
};

/**
 * The RAID configuration schema in OpenAPI 3.1's dialect (JSON Schema 2020-12): draft-04's
 * `minimum` with a boolean `exclusiveMinimum` becomes a numeric `exclusiveMinimum`, and
 * `dependencies` `dependentRequired`; the meaning is unchanged.
 */
function raidConfigBody(): JsonSchemaObject {
  const { $schema: _draft, ...schema } = structuredClone(RAID_CONFIG_SCHEMA) as unknown as {
    $schema: string;
    properties: { logical_disks: { items: Record<string, unknown> } };
  };
  const disk = schema.properties.logical_disks.items;
  const count = (disk.properties as Record<string, Record<string, unknown>>)
    .number_of_physical_disks as Record<string, unknown>;
  count.exclusiveMinimum = count.minimum;
  delete count.minimum;
  disk.dependentRequired = disk.dependencies;
  delete disk.dependencies;
  return schema as unknown as JsonSchemaObject;
}

export const NODE_ACTION_OPERATIONS: readonly OpenApiOperation[] = [
  {
    method: 'get',
    path: '/v1/nodes/{node}/states/console',
    tag: 'node states',
    summary: 'Whether the console is enabled, and how to reach it (null when it is not).',
    pathParameters: NODE,
    responses: [ok('The console.', CONSOLE)],
  },
  {
    method: 'put',
    path: '/v1/nodes/{node}/states/console',
    tag: 'node states',
    summary: 'Start or stop the console (in the background).',
    pathParameters: NODE,
    body: {
      type: 'object',
      properties: { enabled: { type: ['boolean', 'string'] } },
      required: ['enabled'],
    },
    responses: [accepted("Accepted; the location header names the node's console.")],
  },
  {
    method: 'put',
    path: '/v1/nodes/{node}/states/raid',
    since: FEATURES.raidConfig,
    tag: 'node states',
    summary:
      "Set the node's target RAID configuration (checked by its RAID interface; `{}` or no body unsets it).",
    pathParameters: NODE,
    body: raidConfigBody(),
    bodyOptional: true,
    responses: [noContent('Stored.')],
  },
  {
    method: 'put',
    path: '/v1/nodes/{node}/states/boot_mode',
    since: FEATURES.changeBootMode,
    tag: 'node states',
    summary:
      "Change the boot mode (in the background; a refusal is written to the node's last_error).",
    pathParameters: NODE,
    body: {
      type: 'object',
      properties: { target: { type: 'string', enum: TARGET_BOOT_MODES } },
      required: ['target'],
    },
    responses: [accepted('Accepted; the location header names the states.')],
  },
  {
    method: 'put',
    path: '/v1/nodes/{node}/states/secure_boot',
    since: FEATURES.changeBootMode,
    tag: 'node states',
    summary:
      "Turn secure boot on or off (in the background; a refusal is written to the node's last_error).",
    pathParameters: NODE,
    body: {
      type: 'object',
      properties: { target: { type: ['boolean', 'string'] } },
      required: ['target'],
    },
    responses: [accepted('Accepted; the location header names the states.')],
  },
  {
    method: 'put',
    path: '/v1/nodes/{node}/management/inject_nmi',
    since: FEATURES.injectNmi,
    tag: 'node management',
    summary: 'Inject a non-maskable interrupt (refused by fake hardware).',
    pathParameters: NODE,
    body: { type: 'object', additionalProperties: false },
    bodyOptional: true,
    responses: [noContent('Injected.')],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/management/indicators',
    tag: 'node management',
    summary: "The node's indicators (LEDs), by component.",
    pathParameters: NODE,
    responses: [
      ok('The indicators.', {
        type: 'object',
        properties: { indicators: { type: 'array', items: INDICATOR_ITEM } },
        required: ['indicators'],
        additionalProperties: false,
      }),
    ],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/management/indicators/{indicator}',
    tag: 'node management',
    summary: "An indicator's state.",
    pathParameters: INDICATOR,
    responses: [
      ok('The state.', {
        type: 'object',
        properties: { state: { type: 'string' } },
        required: ['state'],
        additionalProperties: false,
      }),
    ],
  },
  {
    method: 'put',
    path: '/v1/nodes/{node}/management/indicators/{indicator}',
    tag: 'node management',
    summary: "Set an indicator's state (refused by fake hardware).",
    pathParameters: INDICATOR,
    body: { type: 'object', properties: { state: { type: 'string' } }, required: ['state'] },
    responses: [noContent('Set.')],
  },
];

const DRIVER = { driver_name: 'A hardware type, e.g. `fake-hardware`.' };
const METHOD_QUERY = [{ name: 'method', description: 'The vendor method to call.' }];
const PASSTHRU_METHODS: JsonSchemaObject = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: {
      http_methods: { type: 'array', items: { type: 'string' } },
      async: { type: 'boolean' },
      description: { type: 'string' },
      attach: { type: 'boolean' },
      require_exclusive_lock: { type: 'boolean' },
    },
  },
};
const PASSTHRU_RESPONSES = [
  { status: '200', description: "A synchronous method's return value, as JSON.", schema: {} },
  accepted('An asynchronous method was started.'),
];

function passthruCalls(
  path: string,
  pathParameters: Record<string, string>,
  tag: string,
  whose: string,
  methodQuery = true,
): OpenApiOperation[] {
  return (['get', 'post', 'put', 'patch', 'delete'] as const).map((method) => ({
    method,
    path,
    tag,
    summary: `Call a vendor method of ${whose} (the body is its arguments).`,
    pathParameters,
    ...(methodQuery ? { query: METHOD_QUERY } : {}),
    body: { type: 'object' },
    bodyOptional: true,
    responses: PASSTHRU_RESPONSES,
  }));
}

export const VENDOR_PASSTHRU_OPERATIONS: readonly OpenApiOperation[] = [
  {
    method: 'get',
    path: '/v1/nodes/{node}/vendor_passthru/methods',
    tag: 'node vendor passthru',
    summary: "The vendor methods of the node's vendor interface.",
    pathParameters: NODE,
    responses: [ok('The methods, by name.', PASSTHRU_METHODS)],
  },
  ...passthruCalls('/v1/nodes/{node}/vendor_passthru', NODE, 'node vendor passthru', 'the node'),
  ...passthruCalls(
    '/v1/nodes/{node}/vendor_passthru/{method}',
    { ...NODE, method: 'The vendor method to call.' },
    'node vendor passthru',
    'the node',
    false,
  ),
  {
    method: 'get',
    path: '/v1/drivers/{driver_name}/vendor_passthru/methods',
    tag: 'driver vendor passthru',
    summary: "The vendor methods of the hardware type's default vendor interface.",
    pathParameters: DRIVER,
    responses: [ok('The methods, by name.', PASSTHRU_METHODS)],
  },
  ...passthruCalls(
    '/v1/drivers/{driver_name}/vendor_passthru',
    DRIVER,
    'driver vendor passthru',
    'the hardware type',
  ),
  ...passthruCalls(
    '/v1/drivers/{driver_name}/vendor_passthru/{method}',
    { ...DRIVER, method: 'The vendor method to call.' },
    'driver vendor passthru',
    'the hardware type',
    false,
  ),
];
