/**
 * The node lists as the real API serves them (NodesController.get_all, detail and
 * _get_nodes_collection): `/v1/nodes` (default fields, or `fields`, or `detail` from 1.43),
 * `/v1/nodes/detail`, and both under `/v1/chassis/{uuid}/nodes`. Each filter is refused below
 * the version that brought it, with the real texts; the `conductor` filter is applied to the
 * page after the query, as the real one does (its pages can come back short); the `next` link
 * repeats what the real one repeats (not the filters).
 */
import type { FastifyRequest } from 'fastify';
import { InvalidParameterError, MissingParameterError } from '../common/errors.ts';
import { ProvisionState } from '../common/provision-states.ts';
import { NODE_COLUMNS, type NodeFilters } from '../db/index.ts';
import type { NodeObject } from '../objects/index.ts';
import { listProjectOf } from './access.ts';
import { listBody, type NextParameters } from './collection.ts';
import { servicesOf } from './context.ts';
import { ClientSideError, minimalVersionRequired, NotAcceptableError } from './errors.ts';
import { type BaremetalFeature, FEATURES } from './features.ts';
import { publicUrl } from './links.ts';
import {
  checkFieldsAllowed,
  checkLimit,
  checkSortDir,
  checkSortKey,
  returnFields,
} from './list-params.ts';
import { checkNodeFieldsAllowed } from './node-fields.ts';
import { NODE_DEFAULT_FIELDS, NodeViewContext, nodeBody } from './node-view.ts';
import { args, bindParams, type ParamSpec, type Params } from './params.ts';
import { pathOf } from './wsgi-path.ts';

const VALID_FAULTS = ['power failure', 'clean failure', 'rescue abort failure'];
const INVALID_SORT_KEYS = [
  'properties',
  'driver_info',
  'extra',
  'instance_info',
  'driver_internal_info',
  'clean_step',
  'deploy_step',
  'raid_config',
  'target_raid_config',
  'traits',
  'network_data',
];
/** Columns a list with `fields` reads besides those asked for (the real required fields). */
const REQUIRED_COLUMNS = [
  'allocation_id',
  'chassis_id',
  'uuid',
  'owner',
  'lessee',
  'created_at',
  'updated_at',
];

/** The filter parameters both lists take, in the real signature's order. */
const FILTER_SPECS: Record<string, ParamSpec> = {
  chassis_uuid: { validate: args.uuid },
  instance_uuid: { validate: args.uuid },
  associated: { validate: args.boolean },
  maintenance: { validate: args.boolean },
  retired: { validate: args.boolean },
  provision_state: { validate: args.string },
  marker: { validate: args.uuid },
  limit: { validate: args.integer },
  sort_key: { validate: args.string },
  sort_dir: { validate: args.string },
  driver: { validate: args.string },
};
const LATER_FILTER_SPECS: Record<string, ParamSpec> = {
  resource_class: { validate: args.string },
  fault: { validate: args.string },
  conductor_group: { validate: args.string },
  conductor: { validate: args.string },
  owner: { validate: args.string },
  description_contains: { validate: args.string },
  lessee: { validate: args.string },
  project: { validate: args.string },
  shard: { validate: args.stringList },
  sharded: { validate: args.boolean },
};

export const LIST_SPECS: Record<string, ParamSpec> = {
  ...FILTER_SPECS,
  fields: { validate: args.stringList },
  ...LATER_FILTER_SPECS,
  detail: { validate: args.boolean },
};
export const DETAIL_SPECS: Record<string, ParamSpec> = { ...FILTER_SPECS, ...LATER_FILTER_SPECS };

/** A filter refused below its gate with the real "minimal required API version" text. */
function filterGate(request: FastifyRequest, value: unknown, gate: BaremetalFeature): void {
  if (value !== undefined && !request.microversion.atLeast(FEATURES[gate])) {
    throw minimalVersionRequired(FEATURES[gate].text);
  }
}

function checkFilters(request: FastifyRequest, params: Params, withConductor: boolean): void {
  const state = params.provision_state as string | undefined;
  if (state !== undefined) {
    if (!request.microversion.atLeast(FEATURES.provisionStateFilter))
      throw new NotAcceptableError();
    if (!(Object.values(ProvisionState) as string[]).includes(state)) {
      throw new InvalidParameterError(`Provision state "${state}" is not valid`);
    }
  }
  filterGate(request, params.driver, 'driverFilter');
  filterGate(request, params.resource_class, 'resourceClass');
  filterGate(request, params.fault, 'nodeFault');
  const fault = params.fault as string | undefined;
  if (fault !== undefined && !VALID_FAULTS.includes(fault)) {
    throw new ClientSideError(
      `Unrecognized fault "${fault}" is specified, allowed faults are ('${VALID_FAULTS.join("', '")}')`,
    );
  }
  filterGate(request, params.conductor_group, 'conductorGroup');
  if (withConductor) filterGate(request, params.conductor, 'conductors');
  filterGate(request, params.owner, 'nodeOwner');
  filterGate(request, params.lessee, 'nodeLessee');
}

function checkShardFilters(request: FastifyRequest, params: Params): void {
  filterGate(request, params.shard, 'nodeShard');
  filterGate(request, params.sharded, 'nodeShard');
}

const FILTER_KEYS = [
  'maintenance',
  'chassis_uuid',
  'associated',
  'provision_state',
  'driver',
  'resource_class',
  'fault',
  'conductor_group',
  'owner',
  'lessee',
  'project',
  'description_contains',
  'retired',
  'instance_uuid',
  'sharded',
] as const;

/** The query's filters; `project`, when the policy narrows the list, replaces the query's. */
function storeFilters(params: Params, project: string | undefined): NodeFilters {
  const filters: Record<string, unknown> = {};
  for (const key of FILTER_KEYS) {
    if (params[key] !== undefined) filters[key] = params[key];
  }
  if (project !== undefined) filters.project = project;
  // `shard=a,b` is Ironic's shard_in.
  if (params.shard !== undefined) filters.shard_in = params.shard;
  return filters as NodeFilters;
}

interface CollectionOptions {
  /** `nodes` or `nodes/detail`. */
  readonly url: string;
  readonly fields: readonly string[] | undefined;
  readonly detail: boolean | undefined;
  /** Listed under a chassis: its UUID is required. */
  readonly fromChassis: boolean;
}

/** _get_nodes_collection. */
async function nodesCollection(
  request: FastifyRequest,
  params: Params,
  options: CollectionOptions,
) {
  if (options.fromChassis && !params.chassis_uuid) {
    throw new MissingParameterError('Chassis id not specified.');
  }
  let limit = checkLimit(request, params.limit as number | undefined);
  const sortDir = checkSortDir((params.sort_dir as string | undefined) ?? 'asc');
  const sortKey = (params.sort_key as string | undefined) ?? 'id';
  checkSortKey(sortKey, INVALID_SORT_KEYS);
  const { store } = servicesOf(request);
  const marker = params.marker as string | undefined;
  if (marker !== undefined) await store.nodes.get(marker);
  const { fields } = options;
  const columns =
    fields === undefined
      ? undefined
      : [...new Set([...fields, ...REQUIRED_COLUMNS])].filter(
          (field) => field === 'traits' || NODE_COLUMNS.includes(field),
        );
  let nodes: NodeObject[] = await store.nodes.list({
    limit,
    marker,
    sortKey,
    sortDir,
    filters: storeFilters(params, listProjectOf(request)),
    ...(columns === undefined ? {} : { fields: columns }),
  });
  const view = new NodeViewContext(request);
  const conductor = params.conductor as string | undefined;
  if (conductor !== undefined) {
    const hosts = await Promise.all(nodes.map((node) => view.conductor(node)));
    nodes = nodes.filter((_, i) => hosts[i] === conductor);
  }
  const parameters: [string, unknown][] = [
    ['sort_key', sortKey],
    ['sort_dir', sortDir],
  ];
  if (params.associated) parameters.push(['associated', params.associated]);
  if (params.maintenance) parameters.push(['maintenance', params.maintenance]);
  if (params.retired) parameters.push(['retired', params.retired]);
  if (options.detail !== undefined) parameters.push(['detail', options.detail]);
  // instance_uuid is unique: never a next page.
  if (params.instance_uuid) limit = 0;
  const items = await Promise.all(nodes.map((node) => nodeBody(view, node, fields)));
  return listBody(
    'nodes',
    items,
    nodes.map((node) => String(node.get('uuid'))),
    {
      limit,
      url: options.url,
      base: publicUrl(request),
      parameters: parameters as NextParameters,
      fields,
    },
  );
}

/** GET /v1/nodes, and /v1/chassis/{uuid}/nodes (the chassis given as `chassisUuid`). */
export async function listNodes(request: FastifyRequest, chassisUuid?: string) {
  const params = bindParams(request, LIST_SPECS);
  if (chassisUuid !== undefined) params.chassis_uuid = args.uuid('chassis_uuid', chassisUuid);
  checkFieldsAllowed(request, params.fields);
  checkNodeFieldsAllowed(request, params.fields as string[] | undefined);
  checkNodeFieldsAllowed(request, [(params.sort_key as string | undefined) ?? 'id']);
  checkFilters(request, params, true);
  checkShardFilters(request, params);
  const detail = params.detail as boolean | undefined;
  const fields = returnFields(
    request,
    params.fields as string[] | undefined,
    detail,
    NODE_DEFAULT_FIELDS,
  );
  return nodesCollection(request, params, {
    url: 'nodes',
    fields,
    detail,
    fromChassis: chassisUuid !== undefined,
  });
}

/** GET /v1/nodes/detail, and /v1/chassis/{uuid}/nodes/detail. */
export async function listNodesDetail(request: FastifyRequest, chassisUuid?: string) {
  const params = bindParams(request, DETAIL_SPECS);
  if (chassisUuid !== undefined) params.chassis_uuid = args.uuid('chassis_uuid', chassisUuid);
  checkFilters(request, params, false);
  checkNodeFieldsAllowed(request, [(params.sort_key as string | undefined) ?? 'id']);
  const parent = pathOf(request.raw).seen.split('/').slice(0, -1).at(-1);
  if (parent !== 'nodes') throw new ClientSideError('Resource could not be found.', 404);
  filterGate(request, params.conductor, 'conductors');
  checkShardFilters(request, params);
  return nodesCollection(request, params, {
    url: 'nodes/detail',
    fields: undefined,
    detail: undefined,
    fromChassis: chassisUuid !== undefined,
  });
}
