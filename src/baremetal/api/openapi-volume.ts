/**
 * The OpenAPI operations and schemas of volume connectors and targets (1.32), for
 * openapi-operations.ts: the root's links, both collections at the root and their lists under a
 * node, with the bodies volume-resource.ts builds and the request schemas it validates with.
 */
import {
  type JsonSchemaObject,
  type OpenApiOperation,
  type QueryParameter,
  schemaRef,
} from '../../microversion/index.ts';
import { FEATURES } from './features.ts';
import { CONNECTOR_KIND, TARGET_KIND, type VolumeKind } from './volume-resource.ts';

const links = {
  type: 'array',
  items: { type: 'object', properties: { href: { type: 'string' }, rel: { type: 'string' } } },
};
const bodyOf = (kind: VolumeKind): JsonSchemaObject => ({
  type: 'object',
  properties: Object.fromEntries(
    ['uuid', 'created_at', 'updated_at', ...kind.bodyFields, 'links', 'node_uuid'].map((f) => [
      f,
      f === 'links' ? links : {},
    ]),
  ),
  additionalProperties: false,
});

export const VOLUME_CONNECTOR_BODY = bodyOf(CONNECTOR_KIND);
export const VOLUME_TARGET_BODY = bodyOf(TARGET_KIND);

const ok = (description: string, schema: JsonSchemaObject) => ({
  status: '200',
  description,
  schema,
});
const since = FEATURES.volume;
const LIST_QUERY: QueryParameter[] = [
  { name: 'marker', description: 'The last item of the previous page (a UUID).' },
  {
    name: 'limit',
    description: 'Items per page (at most `[api] max_limit`).',
    schema: { type: 'integer' },
  },
  { name: 'sort_key', description: 'The field to sort by (not `extra` nor `properties`).' },
  { name: 'sort_dir', description: '`asc` or `desc`.', schema: { enum: ['asc', 'desc'] } },
  { name: 'fields', description: 'Comma-separated fields to show.' },
  {
    name: 'detail',
    description: 'Show every field (not with `fields`).',
    schema: { type: 'boolean' },
  },
];
const NODE_FILTER: QueryParameter = {
  name: 'node',
  description: 'Only those of this node (UUID or name).',
};
const rootLinks = ok('Links to the root and to the connectors and targets.', {
  type: 'object',
  properties: { links, connectors: links, targets: links },
  required: ['links', 'connectors', 'targets'],
  additionalProperties: false,
});

function kindOperations(kind: VolumeKind, schema: string, what: string): OpenApiOperation[] {
  const collection = `/v1/volume/${kind.collection}`;
  const item = `${collection}/{volume}`;
  const page: JsonSchemaObject = {
    type: 'object',
    properties: {
      [kind.collection]: { type: 'array', items: schemaRef(schema) },
      next: { type: 'string' },
    },
    required: [kind.collection],
    additionalProperties: false,
  };
  const pathParameters = { volume: `A volume ${what} UUID.` };
  return [
    {
      method: 'get',
      path: collection,
      since,
      tag: 'volume',
      summary: `List volume ${what}s (the default fields unless \`detail\` or \`fields\`).`,
      query: [...LIST_QUERY, NODE_FILTER],
      responses: [ok(`A page of volume ${what}s.`, page)],
    },
    {
      method: 'post',
      path: collection,
      since,
      tag: 'volume',
      summary: `Create a volume ${what} of a node.`,
      body: kind.schema,
      responses: [{ status: '201', description: `The volume ${what}.`, schema: schemaRef(schema) }],
    },
    {
      method: 'get',
      path: item,
      since,
      tag: 'volume',
      summary: `Show a volume ${what}.`,
      pathParameters,
      query: [{ name: 'fields', description: 'Comma-separated fields to show.' }],
      responses: [ok(`The volume ${what}.`, schemaRef(schema))],
    },
    {
      method: 'patch',
      path: item,
      since,
      tag: 'volume',
      summary: `Update a volume ${what} (JSON patch; its node powered off).`,
      pathParameters,
      body: schemaRef('JsonPatch'),
      responses: [ok(`The volume ${what} as updated.`, schemaRef(schema))],
    },
    {
      method: 'delete',
      path: item,
      since,
      tag: 'volume',
      summary: `Delete a volume ${what} (its node powered off).`,
      pathParameters,
      responses: [{ status: '204', description: 'Deleted.' }],
    },
    {
      method: 'get',
      path: `/v1/nodes/{node}/volume/${kind.collection}`,
      since,
      tag: 'volume',
      summary: `A node's volume ${what}s (the node named by its UUID).`,
      pathParameters: { node: 'A node UUID.' },
      query: LIST_QUERY,
      responses: [ok(`A page of volume ${what}s.`, page)],
    },
  ];
}

export const VOLUME_OPERATIONS: readonly OpenApiOperation[] = [
  {
    method: 'get',
    path: '/v1/volume',
    since,
    tag: 'volume',
    summary: 'Links to the volume connectors and targets.',
    responses: [rootLinks],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/volume',
    since,
    tag: 'volume',
    summary: "Links to a node's volume connectors and targets.",
    pathParameters: { node: 'A node UUID or name (not looked up).' },
    responses: [rootLinks],
  },
  ...kindOperations(CONNECTOR_KIND, 'VolumeConnector', 'connector'),
  ...kindOperations(TARGET_KIND, 'VolumeTarget', 'target'),
];
