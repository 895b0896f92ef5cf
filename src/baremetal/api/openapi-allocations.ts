/**
 * The OpenAPI operations and schemas of allocations (1.52) and deploy templates (1.55), for
 * openapi-operations.ts: their routes with the gates the handlers check (PATCH of an allocation
 * from 1.57, a backfill's `node` from 1.58, `owner` from 1.60), and their bodies as
 * allocation-view.ts and deploy-template-schema.ts build them.
 */
import {
  compareVersions,
  type JsonSchemaObject,
  type OpenApiOperation,
  type QueryParameter,
  schemaRef,
  type Version,
} from '../../microversion/index.ts';
import { ALLOCATION_SCHEMA } from './allocation-create.ts';
import { ALLOCATION_BODY_FIELDS } from './allocation-view.ts';
import { TEMPLATE_SCHEMA } from './deploy-template-schema.ts';
import { FEATURES } from './features.ts';

const links = {
  type: 'array',
  items: { type: 'object', properties: { href: { type: 'string' }, rel: { type: 'string' } } },
};
const fieldsOnly = (fields: readonly string[]) => ({
  type: 'object',
  properties: Object.fromEntries(fields.map((f) => [f, f === 'links' ? links : {}])),
  additionalProperties: false,
});
const page = (name: string, item: string): JsonSchemaObject => ({
  type: 'object',
  properties: { [name]: { type: 'array', items: schemaRef(item) }, next: { type: 'string' } },
  required: [name],
  additionalProperties: false,
});
const ok = (description: string, schema?: JsonSchemaObject) => ({
  status: '200',
  description,
  ...(schema === undefined ? {} : { schema }),
});

/** An allocation at `version`: `owner` from 1.60. */
export function allocationSchema(version: Version): JsonSchemaObject {
  const hasOwner = compareVersions(version, FEATURES.allocationOwner) >= 0;
  return fieldsOnly(ALLOCATION_BODY_FIELDS.filter((field) => hasOwner || field !== 'owner'));
}

export const DEPLOY_TEMPLATE_BODY = fieldsOnly([
  'uuid',
  'created_at',
  'updated_at',
  'name',
  'extra',
  'links',
  'steps',
]);

/** The allocation body at a version: `node` (a backfill) from 1.58, `owner` from 1.60. */
function allocationRequest(version: Version): JsonSchemaObject {
  const properties = { ...(ALLOCATION_SCHEMA.properties as Record<string, unknown>) };
  if (compareVersions(version, FEATURES.allocationBackfill) < 0) delete properties.node;
  if (compareVersions(version, FEATURES.allocationOwner) < 0) delete properties.owner;
  return { ...ALLOCATION_SCHEMA, properties };
}

const PAGE: QueryParameter[] = [
  { name: 'marker', description: 'The last item of the previous page (a UUID).' },
  {
    name: 'limit',
    description: 'Items per page (at most `[api] max_limit`).',
    schema: { type: 'integer' },
  },
  { name: 'sort_key', description: 'The field to sort by.' },
  { name: 'sort_dir', description: '`asc` or `desc`.', schema: { enum: ['asc', 'desc'] } },
];
const FIELDS: QueryParameter = { name: 'fields', description: 'Comma-separated fields to show.' };
const ALLOCATION = { allocation: 'An allocation UUID or name.' };
const NODE = { node: 'A node UUID or name.' };
const TEMPLATE = { template: 'A deploy template UUID or name.' };
const since = FEATURES.allocations;

export const ALLOCATION_OPERATIONS: readonly OpenApiOperation[] = [
  {
    method: 'get',
    path: '/v1/allocations',
    since,
    tag: 'allocations',
    summary: 'List allocations.',
    query: [
      ...PAGE,
      FIELDS,
      { name: 'node', description: 'The allocation of this node (UUID or name).' },
      { name: 'resource_class', description: 'Allocations of this resource class.' },
      { name: 'state', description: 'Allocations in this state (allocating, active, error).' },
      { name: 'owner', since: FEATURES.allocationOwner, description: 'Owned by this project.' },
    ],
    responses: [ok('A page of allocations.', page('allocations', 'Allocation'))],
  },
  {
    method: 'post',
    path: '/v1/allocations',
    since,
    tag: 'allocations',
    summary: 'Create an allocation: a conductor picks a node (or takes the one named, 1.58).',
    body: allocationRequest,
    responses: [
      {
        status: '201',
        description: 'The allocation, `allocating` (or `active` when backfilled).',
        schema: schemaRef('Allocation'),
      },
    ],
  },
  {
    method: 'get',
    path: '/v1/allocations/{allocation}',
    since,
    tag: 'allocations',
    summary: 'Show an allocation.',
    pathParameters: ALLOCATION,
    query: [FIELDS],
    responses: [ok('The allocation.', schemaRef('Allocation'))],
  },
  {
    method: 'patch',
    path: '/v1/allocations/{allocation}',
    since: FEATURES.allocationUpdate,
    tag: 'allocations',
    summary: 'Update the name and extra of an allocation (JSON patch).',
    pathParameters: ALLOCATION,
    body: schemaRef('JsonPatch'),
    responses: [ok('The allocation as updated.', schemaRef('Allocation'))],
  },
  {
    method: 'delete',
    path: '/v1/allocations/{allocation}',
    since,
    tag: 'allocations',
    summary: 'Delete an allocation, freeing its node.',
    pathParameters: ALLOCATION,
    responses: [{ status: '204', description: 'Deleted.' }],
  },
  {
    method: 'get',
    path: '/v1/nodes/{node}/allocation',
    since,
    tag: 'allocations',
    summary: "A node's allocation.",
    pathParameters: NODE,
    query: [FIELDS],
    responses: [ok('The allocation.', schemaRef('Allocation'))],
  },
  {
    method: 'delete',
    path: '/v1/nodes/{node}/allocation',
    since,
    tag: 'allocations',
    summary: "Delete a node's allocation.",
    pathParameters: NODE,
    responses: [{ status: '204', description: 'Deleted.' }],
  },
];

const templates = FEATURES.deployTemplates;

export const DEPLOY_TEMPLATE_OPERATIONS: readonly OpenApiOperation[] = [
  {
    method: 'get',
    path: '/v1/deploy_templates',
    since: templates,
    tag: 'deploy_templates',
    summary: 'List deploy templates (uuid and name unless `detail` or `fields`).',
    query: [
      ...PAGE,
      FIELDS,
      {
        name: 'detail',
        description: 'Show every field (not with `fields`).',
        schema: { type: 'boolean' },
      },
    ],
    responses: [ok('A page of deploy templates.', page('deploy_templates', 'DeployTemplate'))],
  },
  {
    method: 'post',
    path: '/v1/deploy_templates',
    since: templates,
    tag: 'deploy_templates',
    summary: 'Create a deploy template.',
    body: TEMPLATE_SCHEMA,
    responses: [
      { status: '201', description: 'The deploy template.', schema: schemaRef('DeployTemplate') },
    ],
  },
  {
    method: 'get',
    path: '/v1/deploy_templates/{template}',
    since: templates,
    tag: 'deploy_templates',
    summary: 'Show a deploy template.',
    pathParameters: TEMPLATE,
    query: [FIELDS],
    responses: [ok('The deploy template.', schemaRef('DeployTemplate'))],
  },
  {
    method: 'patch',
    path: '/v1/deploy_templates/{template}',
    since: templates,
    tag: 'deploy_templates',
    summary: 'Update the name, steps or extra of a deploy template (JSON patch).',
    pathParameters: TEMPLATE,
    body: schemaRef('JsonPatch'),
    responses: [ok('The deploy template as updated.', schemaRef('DeployTemplate'))],
  },
  {
    method: 'delete',
    path: '/v1/deploy_templates/{template}',
    since: templates,
    tag: 'deploy_templates',
    summary: 'Delete a deploy template.',
    pathParameters: TEMPLATE,
    responses: [{ status: '204', description: 'Deleted.' }],
  },
];
