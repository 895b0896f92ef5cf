/**
 * What ports and port groups share in the real API: MAC addresses as oslo checks them (six
 * colon-separated pairs, lower-cased), the local link connection's schema and its switch id
 * normalised (a MAC or an OpenFlow datapath id), and the lookups of a port's node and port
 * group for its body.
 */
import type { FastifyRequest } from 'fastify';
import type { JsonSchema } from '../../python-compat/index.ts';
import { InvalidError, InvalidParameterError } from '../common/errors.ts';
import { servicesOf } from './context.ts';
import { pyStr, type Validator } from './params.ts';
import { schemaArg } from './schema-args.ts';

const MAC = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/;
const DATAPATH_ID = /^[0-9a-f]{16}$/;

/** oslo's is_valid_mac: six colon-separated hex pairs, any case. */
export function isValidMac(value: unknown): value is string {
  return typeof value === 'string' && MAC.test(value.toLowerCase());
}

/** args.mac_address. */
export const macAddressArg: Validator = (name, value) => {
  if (value === null || value === undefined) return undefined;
  if (!isValidMac(value)) {
    throw new InvalidParameterError(
      `Expected valid MAC address for ${name}: ${pyStr(value)}`,
      name,
    );
  }
  return value.toLowerCase();
};

const LOCAL_LINK_PROPERTIES = {
  port_id: { type: 'string' },
  switch_id: { type: 'string' },
  hostname: { type: 'string' },
  switch_info: { type: 'string' },
  network_type: { type: 'string', enum: ['managed', 'unmanaged'] },
};
const localLink = (required: readonly string[], networkTypes?: readonly string[]): JsonSchema => ({
  type: 'object',
  properties: networkTypes
    ? { ...LOCAL_LINK_PROPERTIES, network_type: { type: 'string', enum: networkTypes } }
    : LOCAL_LINK_PROPERTIES,
  additionalProperties: false,
  required,
});

export const LOCAL_LINK_SMART_NIC_SCHEMA = localLink(['port_id', 'hostname']);
const LOCAL_LINK_CONNECTION_SCHEMA: JsonSchema = {
  anyOf: [
    localLink(['port_id', 'switch_id']),
    LOCAL_LINK_SMART_NIC_SCHEMA,
    localLink(['network_type'], ['unmanaged']),
    { type: 'object', additionalProperties: false },
  ],
};

const localLinkSchema = schemaArg(LOCAL_LINK_CONNECTION_SCHEMA);
export const localLinkSmartNic = schemaArg(LOCAL_LINK_SMART_NIC_SCHEMA);

/** LOCAL_LINK_VALIDATOR: the schema, then the switch id normalised. */
export const localLinkConnectionArg: Validator = (name, value) => {
  const checked = localLinkSchema(name, value) as Record<string, unknown> | null | undefined;
  if (!checked || Object.keys(checked).length === 0) return checked;
  if (!Object.hasOwn(checked, 'switch_id')) return checked;
  const switchId = checked.switch_id;
  const lowered = typeof switchId === 'string' ? switchId.toLowerCase() : '';
  if (!MAC.test(lowered) && !DATAPATH_ID.test(lowered)) {
    throw new InvalidError(
      `Expected a MAC address or OpenFlow datapath ID but received ${pyStr(switchId)}.`,
    );
  }
  return { ...checked, switch_id: lowered };
};

/** UUIDs of nodes and port groups by id, looked up once per request. */
export class PortRelations {
  readonly #request: FastifyRequest;
  readonly #nodes = new Map<number, Promise<string | null>>();
  readonly #portgroups = new Map<number, Promise<string | null>>();

  constructor(request: FastifyRequest) {
    this.#request = request;
  }

  nodeUuid(id: number | null): Promise<string | null> {
    if (id === null) return Promise.resolve(null);
    let known = this.#nodes.get(id);
    if (known === undefined) {
      known = servicesOf(this.#request)
        .store.nodes.get(id)
        .then((node) => node.get('uuid'))
        .catch(() => null);
      this.#nodes.set(id, known);
    }
    return known;
  }

  portgroupUuid(id: number | null): Promise<string | null> {
    if (id === null || id === 0) return Promise.resolve(null);
    let known = this.#portgroups.get(id);
    if (known === undefined) {
      known = servicesOf(this.#request)
        .store.portgroups.get(id)
        .then((portgroup) => portgroup.get('uuid'))
        .catch(() => null);
      this.#portgroups.set(id, known);
    }
    return known;
  }
}
