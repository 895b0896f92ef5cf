/**
 * Placement's operations for its OpenAPI documents (src/microversion/openapi.ts): each route
 * of routes.ts with the gate it exists from, and the same schemas and FeatureWindows the
 * handlers validate with; response bodies are described by their fields at each version
 * (Placement keeps no response schemas of its own). test/placement/api/openapi.test.ts checks
 * that this list and the registered routes are the same set.
 */
import {
  compareVersions,
  type JsonSchemaObject,
  type OpenApiOperation,
  type OpenApiService,
  openApiDocument,
  type Version,
} from '../../microversion/index.ts';
import {
  CREATE_INVENTORY_SCHEMA,
  REPLACE_INVENTORIES_SCHEMA,
  UPDATE_INVENTORY_SCHEMA,
} from '../schemas/inventory.ts';
import { RESOURCE_CLASS_BODY } from '../schemas/resource-class.ts';
import { LIST_TRAITS_QUERY, PROVIDER_TRAITS_BODY } from '../schemas/trait.ts';
import { PUT_AGGREGATES_SCHEMAS } from './aggregates.ts';
import { CANDIDATES_QUERY_SCHEMAS } from './allocation-candidates.ts';
import { POST_ALLOCATIONS_SCHEMAS, PUT_ALLOCATIONS_SCHEMAS } from './allocations.ts';
import { FEATURES } from './features.ts';
import { RESHAPER_SCHEMAS } from './reshaper.ts';
import { CREATE_SCHEMAS, LIST_QUERY_SCHEMAS, UPDATE_SCHEMAS } from './resource-providers.ts';
import { TOTAL_USAGES_QUERY_SCHEMAS } from './usages.ts';
import { PLACEMENT_VERSIONS } from './versions.ts';

const atLeast = (version: Version, gate: Version) => compareVersions(version, gate) >= 0;

/** An object with these properties, all required, nothing else (what the handler writes). */
function exactly(properties: Record<string, JsonSchemaObject>): JsonSchemaObject {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

const text = { type: 'string' };
const integer = { type: 'integer' };
const uuid = { type: 'string', format: 'uuid' };
const nullableUuid = { type: ['string', 'null'], format: 'uuid' };
const links = {
  type: 'array',
  items: exactly({ rel: text, href: text }),
};
const amounts = { type: 'object', additionalProperties: { type: 'integer' } };

/** A provider as provider-view.ts shows it. */
function provider(version: Version): JsonSchemaObject {
  return exactly({
    uuid,
    name: text,
    generation: integer,
    links,
    ...(atLeast(version, FEATURES.nestedProviders)
      ? { parent_provider_uuid: nullableUuid, root_provider_uuid: uuid }
      : {}),
  });
}

const inventory = exactly({
  total: integer,
  reserved: integer,
  min_unit: integer,
  max_unit: integer,
  step_size: integer,
  allocation_ratio: { type: 'number' },
});
const inventoryWithGeneration = exactly({
  ...inventory.properties,
  resource_provider_generation: integer,
});
const inventories = exactly({
  resource_provider_generation: integer,
  inventories: { type: 'object', additionalProperties: inventory },
});
const resourceClass = exactly({ name: text, links });
const traitList = exactly({ traits: { type: 'array', items: text } });
const providerTraits = exactly({
  traits: { type: 'array', items: text },
  resource_provider_generation: integer,
});

function aggregates(version: Version): JsonSchemaObject {
  const list = { type: 'array', items: uuid };
  return atLeast(version, FEATURES.aggregateGenerations)
    ? exactly({ aggregates: list, resource_provider_generation: integer })
    : exactly({ aggregates: list });
}

/** GET /allocations/{consumer_uuid}: empty `allocations` (and nothing else) for an unknown consumer. */
function consumerAllocations(version: Version): JsonSchemaObject {
  const byProvider = {
    type: 'object',
    additionalProperties: exactly({ resources: amounts, generation: integer }),
  };
  const owner: Record<string, JsonSchemaObject> = {};
  if (atLeast(version, FEATURES.allocationsAsDict)) {
    owner.project_id = text;
    owner.user_id = text;
    if (atLeast(version, FEATURES.consumerGenerations)) owner.consumer_generation = integer;
    if (atLeast(version, FEATURES.consumerTypes))
      owner.consumer_type = { type: ['string', 'null'] };
  }
  return {
    type: 'object',
    properties: { allocations: byProvider, ...owner },
    required: ['allocations'],
    additionalProperties: false,
  };
}

function providerAllocations(version: Version): JsonSchemaObject {
  const entry = atLeast(version, FEATURES.consumerGenerations)
    ? exactly({ resources: amounts, consumer_generation: integer })
    : exactly({ resources: amounts });
  return exactly({
    resource_provider_generation: integer,
    allocations: { type: 'object', additionalProperties: entry },
  });
}

function totalUsages(version: Version): JsonSchemaObject {
  if (!atLeast(version, FEATURES.consumerTypes)) return exactly({ usages: amounts });
  return exactly({
    usages: {
      type: 'object',
      description:
        'Usages by resource class, or (with consumer_type) by consumer type, each with consumer_count.',
      additionalProperties: { type: ['integer', 'object'] },
    },
  });
}

/** GET /allocation_candidates, as allocation-candidates.ts writes it at `version`. */
function candidates(version: Version): JsonSchemaObject {
  const request = atLeast(version, FEATURES.allocationsAsDict)
    ? exactly({
        allocations: { type: 'object', additionalProperties: exactly({ resources: amounts }) },
        ...(atLeast(version, FEATURES.allocationMappings)
          ? { mappings: { type: 'object', additionalProperties: { type: 'array', items: uuid } } }
          : {}),
      })
    : exactly({
        allocations: {
          type: 'array',
          items: exactly({ resource_provider: exactly({ uuid }), resources: amounts }),
        },
      });
  const summary = exactly({
    resources: {
      type: 'object',
      additionalProperties: exactly({ capacity: integer, used: integer }),
    },
    ...(atLeast(version, FEATURES.candidateTraits)
      ? { traits: { type: 'array', items: text } }
      : {}),
    ...(atLeast(version, FEATURES.nestedCandidates)
      ? { parent_provider_uuid: nullableUuid, root_provider_uuid: uuid }
      : {}),
  });
  return exactly({
    allocation_requests: { type: 'array', items: request },
    provider_summaries: { type: 'object', additionalProperties: summary },
  });
}

const versionDocument = exactly({
  versions: {
    type: 'array',
    items: exactly({
      id: text,
      max_version: text,
      min_version: text,
      status: text,
      links,
    }),
  },
});

const PROVIDER = { uuid: 'The resource provider UUID.' };
const CONSUMER = { consumer_uuid: 'The consumer (instance, migration…) UUID.' };
const ok = (description: string, schema?: OpenApiOperation['responses'][number]['schema']) => ({
  status: '200',
  description,
  ...(schema === undefined ? {} : { schema }),
});
const noContent = (description: string) => ({ status: '204', description });

export const PLACEMENT_OPERATIONS: readonly OpenApiOperation[] = [
  {
    method: 'get',
    path: '/',
    tag: 'versions',
    summary: 'The version document (no token needed).',
    public: true,
    responses: [ok('The versions this service serves.', versionDocument)],
  },
  {
    method: 'get',
    path: '/openapi/{document}',
    tag: 'versions',
    summary: 'The OpenAPI document of a microversion (Baton only; no token needed).',
    public: true,
    pathParameters: { document: 'A microversion and `.json`, such as `1.39.json`.' },
    responses: [ok('This kind of document, for the version asked for.', { type: 'object' })],
  },
  {
    method: 'get',
    path: '/resource_providers',
    tag: 'resource providers',
    summary: 'List resource providers, filtered.',
    querySchema: LIST_QUERY_SCHEMAS,
    responses: [
      ok('The providers.', (v) =>
        exactly({ resource_providers: { type: 'array', items: provider(v) } }),
      ),
    ],
  },
  {
    method: 'post',
    path: '/resource_providers',
    tag: 'resource providers',
    summary: 'Create a resource provider.',
    body: CREATE_SCHEMAS,
    responses: [
      {
        status: '201',
        until: FEATURES.createProviderReturnsBody,
        description: 'Created; the location header names it.',
      },
      { ...ok('Created; the provider.', provider), since: FEATURES.createProviderReturnsBody },
    ],
  },
  {
    method: 'get',
    path: '/resource_providers/{uuid}',
    tag: 'resource providers',
    summary: 'Show a resource provider.',
    pathParameters: PROVIDER,
    responses: [ok('The provider.', provider)],
  },
  {
    method: 'put',
    path: '/resource_providers/{uuid}',
    tag: 'resource providers',
    summary: 'Rename (and re-parent) a resource provider.',
    pathParameters: PROVIDER,
    body: UPDATE_SCHEMAS,
    responses: [ok('The provider as updated.', provider)],
  },
  {
    method: 'delete',
    path: '/resource_providers/{uuid}',
    tag: 'resource providers',
    summary: 'Delete a resource provider.',
    pathParameters: PROVIDER,
    responses: [noContent('Deleted.')],
  },
  {
    method: 'get',
    path: '/resource_providers/{uuid}/inventories',
    tag: 'inventories',
    summary: "A provider's inventories.",
    pathParameters: PROVIDER,
    responses: [ok('The inventories by resource class.', inventories)],
  },
  {
    method: 'post',
    path: '/resource_providers/{uuid}/inventories',
    tag: 'inventories',
    summary: 'Add one inventory.',
    pathParameters: PROVIDER,
    body: CREATE_INVENTORY_SCHEMA,
    responses: [{ status: '201', description: 'Created.', schema: inventoryWithGeneration }],
  },
  {
    method: 'put',
    path: '/resource_providers/{uuid}/inventories',
    tag: 'inventories',
    summary: "Replace all of a provider's inventories.",
    pathParameters: PROVIDER,
    body: REPLACE_INVENTORIES_SCHEMA,
    responses: [ok('The inventories as replaced.', inventories)],
  },
  {
    method: 'delete',
    path: '/resource_providers/{uuid}/inventories',
    since: FEATURES.deleteAllInventories,
    tag: 'inventories',
    summary: "Delete all of a provider's inventories (405 before 1.5).",
    pathParameters: PROVIDER,
    responses: [noContent('Deleted.')],
  },
  {
    method: 'get',
    path: '/resource_providers/{uuid}/inventories/{resource_class}',
    tag: 'inventories',
    summary: 'One inventory.',
    pathParameters: { ...PROVIDER, resource_class: 'A resource class name.' },
    responses: [ok('The inventory.', inventoryWithGeneration)],
  },
  {
    method: 'put',
    path: '/resource_providers/{uuid}/inventories/{resource_class}',
    tag: 'inventories',
    summary: 'Update one inventory.',
    pathParameters: { ...PROVIDER, resource_class: 'A resource class name.' },
    body: UPDATE_INVENTORY_SCHEMA,
    responses: [ok('The inventory as updated.', inventoryWithGeneration)],
  },
  {
    method: 'delete',
    path: '/resource_providers/{uuid}/inventories/{resource_class}',
    tag: 'inventories',
    summary: 'Delete one inventory.',
    pathParameters: { ...PROVIDER, resource_class: 'A resource class name.' },
    responses: [noContent('Deleted.')],
  },
  {
    method: 'get',
    path: '/resource_classes',
    since: FEATURES.resourceClasses,
    tag: 'resource classes',
    summary: 'List resource classes.',
    responses: [
      ok(
        'Standard and custom classes.',
        exactly({ resource_classes: { type: 'array', items: resourceClass } }),
      ),
    ],
  },
  {
    method: 'post',
    path: '/resource_classes',
    since: FEATURES.resourceClasses,
    tag: 'resource classes',
    summary: 'Create a custom resource class.',
    body: RESOURCE_CLASS_BODY,
    responses: [{ status: '201', description: 'Created; the location header names it.' }],
  },
  {
    method: 'get',
    path: '/resource_classes/{name}',
    since: FEATURES.resourceClasses,
    tag: 'resource classes',
    summary: 'Show a resource class.',
    pathParameters: { name: 'A resource class name.' },
    responses: [ok('The class.', resourceClass)],
  },
  {
    method: 'put',
    path: '/resource_classes/{name}',
    since: FEATURES.resourceClasses,
    tag: 'resource classes',
    summary: 'Rename a custom class (1.2–1.6); from 1.7 create it, bodiless, if missing.',
    pathParameters: { name: 'A resource class name.' },
    body: (v) => (atLeast(v, FEATURES.putCreatesResourceClass) ? undefined : RESOURCE_CLASS_BODY),
    responses: [
      { ...ok('Renamed; the class.', resourceClass), until: FEATURES.putCreatesResourceClass },
      { status: '201', since: FEATURES.putCreatesResourceClass, description: 'Created.' },
      {
        status: '204',
        since: FEATURES.putCreatesResourceClass,
        description: 'It already existed.',
      },
    ],
  },
  {
    method: 'delete',
    path: '/resource_classes/{name}',
    since: FEATURES.resourceClasses,
    tag: 'resource classes',
    summary: 'Delete a custom resource class.',
    pathParameters: { name: 'A resource class name.' },
    responses: [noContent('Deleted.')],
  },
  {
    method: 'get',
    path: '/traits',
    since: FEATURES.traits,
    tag: 'traits',
    summary: 'List traits (`name=in:A,B` or `name=startswith:P`, `associated=true|false`).',
    querySchema: LIST_TRAITS_QUERY,
    responses: [ok('The trait names.', traitList)],
  },
  {
    method: 'get',
    path: '/traits/{name}',
    since: FEATURES.traits,
    tag: 'traits',
    summary: 'Whether a trait exists.',
    pathParameters: { name: 'A trait name.' },
    responses: [noContent('It exists.')],
  },
  {
    method: 'put',
    path: '/traits/{name}',
    since: FEATURES.traits,
    tag: 'traits',
    summary: 'Create a custom trait.',
    pathParameters: { name: 'A CUSTOM_ trait name.' },
    responses: [{ status: '201', description: 'Created.' }, noContent('It already existed.')],
  },
  {
    method: 'delete',
    path: '/traits/{name}',
    since: FEATURES.traits,
    tag: 'traits',
    summary: 'Delete a custom trait.',
    pathParameters: { name: 'A CUSTOM_ trait name.' },
    responses: [noContent('Deleted.')],
  },
  {
    method: 'get',
    path: '/resource_providers/{uuid}/traits',
    since: FEATURES.traits,
    tag: 'traits',
    summary: "A provider's traits.",
    pathParameters: PROVIDER,
    responses: [ok('The traits and the provider generation.', providerTraits)],
  },
  {
    method: 'put',
    path: '/resource_providers/{uuid}/traits',
    since: FEATURES.traits,
    tag: 'traits',
    summary: "Replace a provider's traits.",
    pathParameters: PROVIDER,
    body: PROVIDER_TRAITS_BODY,
    responses: [ok('The traits as set.', providerTraits)],
  },
  {
    method: 'delete',
    path: '/resource_providers/{uuid}/traits',
    since: FEATURES.traits,
    tag: 'traits',
    summary: "Remove all of a provider's traits.",
    pathParameters: PROVIDER,
    responses: [noContent('Removed.')],
  },
  {
    method: 'get',
    path: '/resource_providers/{uuid}/aggregates',
    since: FEATURES.providerAggregates,
    tag: 'aggregates',
    summary: "A provider's aggregates.",
    pathParameters: PROVIDER,
    responses: [ok('The aggregate UUIDs.', aggregates)],
  },
  {
    method: 'put',
    path: '/resource_providers/{uuid}/aggregates',
    since: FEATURES.providerAggregates,
    tag: 'aggregates',
    summary: "Replace a provider's aggregates.",
    pathParameters: PROVIDER,
    body: PUT_AGGREGATES_SCHEMAS,
    responses: [ok('The aggregates as set.', aggregates)],
  },
  {
    method: 'post',
    path: '/allocations',
    since: FEATURES.postAllocations,
    tag: 'allocations',
    summary: 'Set the allocations of several consumers at once.',
    body: POST_ALLOCATIONS_SCHEMAS,
    responses: [noContent('Written.')],
  },
  {
    method: 'get',
    path: '/allocations/{consumer_uuid}',
    tag: 'allocations',
    summary: "A consumer's allocations.",
    pathParameters: CONSUMER,
    responses: [
      ok('Allocations by provider (empty for an unknown consumer).', consumerAllocations),
    ],
  },
  {
    method: 'put',
    path: '/allocations/{consumer_uuid}',
    tag: 'allocations',
    summary: "Replace a consumer's allocations.",
    pathParameters: CONSUMER,
    body: PUT_ALLOCATIONS_SCHEMAS,
    responses: [noContent('Written.')],
  },
  {
    method: 'delete',
    path: '/allocations/{consumer_uuid}',
    tag: 'allocations',
    summary: "Delete a consumer's allocations.",
    pathParameters: CONSUMER,
    responses: [noContent('Deleted.')],
  },
  {
    method: 'get',
    path: '/resource_providers/{uuid}/allocations',
    tag: 'allocations',
    summary: 'The allocations against a provider, by consumer.',
    pathParameters: PROVIDER,
    responses: [ok('Allocations by consumer.', providerAllocations)],
  },
  {
    method: 'get',
    path: '/allocation_candidates',
    since: FEATURES.allocationCandidates,
    tag: 'allocation candidates',
    summary: 'Providers that could satisfy a request, as allocation requests and summaries.',
    querySchema: CANDIDATES_QUERY_SCHEMAS,
    responses: [ok('Allocation requests and provider summaries.', candidates)],
  },
  {
    method: 'get',
    path: '/resource_providers/{uuid}/usages',
    tag: 'usages',
    summary: "A provider's usages by resource class.",
    pathParameters: PROVIDER,
    responses: [
      ok(
        'Usages and the provider generation.',
        exactly({ resource_provider_generation: integer, usages: amounts }),
      ),
    ],
  },
  {
    method: 'get',
    path: '/usages',
    since: FEATURES.usages,
    tag: 'usages',
    summary: "A project's (or user's) usages.",
    querySchema: TOTAL_USAGES_QUERY_SCHEMAS,
    responses: [ok('Usages by resource class (by consumer type from 1.38).', totalUsages)],
  },
  {
    method: 'post',
    path: '/reshaper',
    since: FEATURES.reshaper,
    tag: 'reshaper',
    summary: 'Move inventories and allocations between providers in one step.',
    body: RESHAPER_SCHEMAS,
    responses: [noContent('Reshaped.')],
  },
];

const ERROR_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          status: integer,
          title: text,
          detail: text,
          request_id: text,
          code: {
            ...text,
            description: 'From 1.23; `placement.undefined_code` when none applies.',
          },
          min_version: text,
          max_version: text,
        },
        required: ['status', 'title', 'detail'],
      },
    },
  },
  required: ['errors'],
};

export const PLACEMENT_OPENAPI: OpenApiService = {
  title: 'Baton Placement API',
  description:
    'OpenStack-Placement-compatible API served by Baton. Generated from its route table, ' +
    'request schemas and features table (`baton openapi --service placement`).',
  versions: PLACEMENT_VERSIONS,
  versionHeader: { name: 'OpenStack-API-Version', example: (v) => `placement ${v}` },
  responseHeaders: {
    'openstack-api-version': 'The microversion of the answer, `placement X.Y`.',
    'x-openstack-request-id': 'The request id, also in error bodies.',
  },
  errorSchema: ERROR_SCHEMA,
  errorDescription:
    'An error in the API-SIG format: `{"errors": [{status, title, detail, request_id, code?}]}`.',
  tokenHeader: 'X-Auth-Token',
  operations: PLACEMENT_OPERATIONS,
};

/** Placement's OpenAPI document at `version` (one of PLACEMENT_VERSIONS). */
export function placementOpenApi(version: string): JsonSchemaObject {
  return openApiDocument(PLACEMENT_OPENAPI, version);
}
