/**
 * /v1/nodes/{node}/bios as the real API serves it (NodeBiosController, from 1.40): the node's
 * BIOS settings read from `bios_settings` by the API process, as the real one reads them.
 *
 * - The list is `{"bios": [...]}`, each setting with `created_at`, `updated_at`, `name`,
 *   `value` and its links (under the node as the request named it). From 1.74, `?detail=True`
 *   adds the registry fields (`attribute_type`, `allowable_values`, `lower_bound`,
 *   `max_length`, `min_length`, `read_only`, `reset_required`, `unique`, `upper_bound`) and
 *   `?fields=` picks fields; below 1.74 either is the real 400 "Invalid query parameter
 *   ?detail=True received." / "?fields=[...] received.".
 * - `/bios/{setting}` is `{<setting>: {...}}`, with the registry fields from 1.74, its links
 *   under the node's UUID; a setting the node lacks is the real BIOSSettingNotFound (404).
 * - Below 1.40 the real nodes controller aborts with WebOb's 404 before looking at the node.
 * - Policy `baremetal:node:bios:get`, checked after the arguments, as the real controller.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pythonRepr } from '../../python-compat/index.ts';
import { InvalidParameterError } from '../common/errors.ts';
import { biosSettingNotFound } from '../db/errors.ts';
import { BIOS_REGISTRY_FIELDS, type BIOSSettingObject } from '../objects/index.ts';
import { type Handler, servicesOf } from './context.ts';
import { HttpAbort } from './errors.ts';
import { FEATURES } from './features.ts';
import { publicUrl, selfLinks } from './links.ts';
import { returnFields } from './list-params.ts';
import { nodeWithPolicy } from './node-sub-access.ts';
import { nodeIdent } from './nodes.ts';
import { objectToDict } from './object-dict.ts';
import { args, bindParams, isValidLogicalName, pyStr } from './params.ts';
import { declareRoute } from './routing.ts';

const RULE = 'baremetal:node:bios:get';
const DEFAULT_FIELDS = ['name', 'value'] as const;
const FIELDS_WITH_REGISTRY = ['name', 'value', ...BIOS_REGISTRY_FIELDS] as const;
/** What `fields` may name: the object's fields (the real one fails with a 500 on others). */
const KNOWN_FIELDS = new Set(['node_id', 'created_at', 'updated_at', ...FIELDS_WITH_REGISTRY]);

/** Below 1.40 the nodes controller does not route to bios. */
function checkRouted(request: FastifyRequest): string {
  const ident = nodeIdent(request);
  if (!request.microversion.atLeast(FEATURES.biosInterface)) throw new HttpAbort(404);
  args.uuidOrName('node_ident', ident);
  return ident;
}

/** bios.convert_with_links: timestamps, the fields, links under `nodes/<node>/bios/<name>`. */
function settingBody(
  request: FastifyRequest,
  setting: BIOSSettingObject,
  node: string,
  fields: readonly string[],
): Record<string, unknown> {
  const body = objectToDict(setting, fields, { uuid: false });
  body.links = selfLinks(publicUrl(request), 'nodes', `${node}/bios/${setting.get('name')}`);
  return body;
}

const list: Handler = async (request) => {
  const ident = checkRouted(request);
  const params = bindParams(request, {
    fields: { validate: args.stringList },
    detail: { validate: args.boolean },
  });
  const fields = params.fields as string[] | undefined;
  const detail = params.detail as boolean | undefined;
  // get_request_return_fields with allow_query_bios for both checks, in its order.
  const registry = request.microversion.atLeast(FEATURES.biosRegistry);
  if (detail !== undefined && !registry) {
    throw new InvalidParameterError(
      `Invalid query parameter ?detail=${detail ? 'True' : 'False'} received.`,
    );
  }
  if (fields !== undefined && !registry) {
    throw new InvalidParameterError(
      `Invalid query parameter ?fields=${pythonRepr(fields)} received.`,
    );
  }
  const shown = returnFields(request, fields, detail, DEFAULT_FIELDS, registry);
  const unknown = (shown ?? []).filter((field) => !KNOWN_FIELDS.has(field));
  if (unknown.length > 0) {
    throw new InvalidParameterError(`Field(s) "${unknown.join(', ')}" are not valid`);
  }
  const node = await nodeWithPolicy(request, RULE, ident);
  const settings = await servicesOf(request).store.biosSettings.list(node.get('id'));
  const chosen = detail ? FIELDS_WITH_REGISTRY : (shown ?? DEFAULT_FIELDS);
  return { bios: settings.map((setting) => settingBody(request, setting, ident, chosen)) };
};

const show: Handler = async (request) => {
  const ident = checkRouted(request);
  const { setting } = request.params as { setting: string };
  bindParams(request, {});
  if (!isValidLogicalName(setting)) {
    throw new InvalidParameterError(`Expected name for setting_name: ${pyStr(setting)}`);
  }
  const node = await nodeWithPolicy(request, RULE, ident);
  const uuid = String(node.get('uuid'));
  let found: BIOSSettingObject;
  try {
    found = await servicesOf(request).store.biosSettings.get(node.get('id'), setting);
  } catch (error) {
    // The real controller names the node by its UUID here.
    if (error instanceof Error && error.name === 'NotFoundError') {
      throw biosSettingNotFound(uuid, setting);
    }
    throw error;
  }
  const fields = request.microversion.atLeast(FEATURES.biosRegistry)
    ? FIELDS_WITH_REGISTRY
    : DEFAULT_FIELDS;
  return { [setting]: settingBody(request, found, uuid, fields) };
};

export function registerNodeBiosRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/nodes/:node/bios', { GET: list });
  declareRoute(app, '/v1/nodes/:node/bios/:setting', { GET: show });
}
