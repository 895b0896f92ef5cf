/**
 * /v1/drivers as the real API serves it (controllers/v1/driver.py): the hardware types some
 * live conductor runs, with their hosts and the interfaces they registered; `detail` and
 * `type` from 1.30, `fields` from 1.77; one driver; its properties; its RAID logical disk
 * properties (1.12). The real API asks a conductor for the two property documents; here the
 * properties are those the registered default implementations document in the driver
 * catalogue (src/baremetal/drivers), the same modules the conductors load, and the RAID
 * logical disk properties are a conductor's (RPC 1.4, get_raid_logical_disk_properties), asked
 * each time (the real API keeps each driver's answer for the life of the process).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidParameterError, UnsupportedDriverExtensionError } from '../common/errors.ts';
import { BUILTIN_DRIVERS, defaultImplementationProperties } from '../drivers/driver-catalog.ts';
import { interfacesFromRows } from '../drivers/enabled-interfaces.ts';
import { INTERFACE_KINDS, type InterfaceKind } from '../drivers/interface-kinds.ts';
import { RAID_LOGICAL_DISK_PROPERTIES } from '../drivers/raid-logical-disks.ts';
import { type Handler, servicesOf } from './context.ts';
import { DRIVER_FIELDS, driverBody, type HardwareTypeView } from './driver-views.ts';
import { ClientSideError, minimalVersionRequired, NotAcceptableError } from './errors.ts';
import { FEATURES, gatesAt } from './features.ts';
import { publicUrl } from './links.ts';
import { invalidFields, keepFields } from './object-dict.ts';
import { args, bindParams } from './params.ts';
import { declareRoute } from './routing.ts';

/** The hardware types of live conductors, with their hosts and registered interfaces. */
async function liveHardwareTypes(request: FastifyRequest): Promise<HardwareTypeView[]> {
  const { store, settings } = servicesOf(request);
  const types = await store.conductors.activeHardwareTypes(settings.heartbeatTimeout);
  const names = [...types.keys()];
  const rows = await store.conductors.listHardwareTypeInterfaces(names, settings.heartbeatTimeout);
  const registered = rows.map((row) => ({
    hardwareType: row.hardware_type,
    interfaceType: row.interface_type as InterfaceKind,
    interfaceName: row.interface_name,
    default: row.default,
  }));
  return names.map((name) => ({
    name,
    hosts: [...(types.get(name) ?? [])],
    interfaces: interfacesFromRows(name, registered),
  }));
}

function checkDriverFields(request: FastifyRequest, fields: unknown): void {
  if (fields !== undefined && !request.microversion.atLeast(FEATURES.driverFieldsSelector)) {
    throw new NotAcceptableError();
  }
}

/** driver_sanitize: keep the fields asked for, then refuse those the body lacks. */
function sanitized(body: Record<string, unknown>, fields: readonly string[] | undefined) {
  if (fields === undefined) return body;
  keepFields(body, fields);
  const invalid = invalidFields(fields, body);
  if (invalid.length > 0) {
    throw new InvalidParameterError(`Field(s) "${invalid.join(', ')}" are not valid`);
  }
  return body;
}

const list: Handler = async (request) => {
  const params = bindParams(request, {
    type: { validate: args.string },
    detail: { validate: args.boolean },
    fields: { validate: args.stringList },
  });
  const fields = params.fields as string[] | undefined;
  const detail = params.detail as boolean | undefined;
  const type = params.type as string | undefined;
  if (fields && fields.length > 0 && detail) {
    throw new InvalidParameterError('Can not specify ?detail=True and fields in the same request.');
  }
  const dynamic = request.microversion.atLeast(FEATURES.dynamicDrivers);
  if (detail !== undefined && !dynamic) throw minimalVersionRequired(FEATURES.dynamicDrivers.text);
  if (type !== undefined && !dynamic) throw minimalVersionRequired(FEATURES.dynamicDrivers.text);
  checkDriverFields(request, fields);
  if (type !== undefined && type !== 'classic' && type !== 'dynamic') {
    throw new ClientSideError('"type" filter must be one of "classic" or "dynamic", if specified.');
  }
  const types = type === 'classic' ? [] : await liveHardwareTypes(request);
  const context = { baseUrl: publicUrl(request), allows: gatesAt(request.microversion) };
  return {
    drivers: types.map((driver) => sanitized(driverBody(driver, context, detail === true), fields)),
  };
};

async function liveDriver(request: FastifyRequest, name: string): Promise<HardwareTypeView> {
  const driver = (await liveHardwareTypes(request)).find((type) => type.name === name);
  if (driver === undefined) {
    throw new ClientSideError(
      `Could not find the following driver(s) or hardware type(s): ${name}.`,
      404,
    );
  }
  return driver;
}

/** get_topic_for_driver: a driver no live conductor runs is unknown. */
async function knownDriver(request: FastifyRequest, name: string): Promise<HardwareTypeView> {
  const driver = (await liveHardwareTypes(request)).find((type) => type.name === name);
  if (driver === undefined) throw new ClientSideError(`The driver '${name}' is unknown.`, 404);
  return driver;
}

const show: Handler = async (request) => {
  const { driver_name: name } = request.params as { driver_name: string };
  const params = bindParams(request, { fields: { validate: args.stringList } });
  const fields = params.fields as string[] | undefined;
  checkDriverFields(request, fields);
  const driver = await liveDriver(request, name);
  const context = { baseUrl: publicUrl(request), allows: gatesAt(request.microversion) };
  return sanitized(driverBody(driver, context, true), fields);
};

const properties: Handler = async (request) => {
  const { driver_name: name } = request.params as { driver_name: string };
  bindParams(request, {});
  const driver = await knownDriver(request, name);
  const defaults = Object.fromEntries(
    INTERFACE_KINDS.map((kind) => [kind, driver.interfaces[kind].default]),
  );
  return defaultImplementationProperties(servicesOf(request).drivers ?? BUILTIN_DRIVERS, defaults);
};

const raidLogicalDiskProperties: Handler = async (request) => {
  const { driver_name: name } = request.params as { driver_name: string };
  bindParams(request, {});
  if (!request.microversion.atLeast(FEATURES.raidConfig)) throw new NotAcceptableError();
  await knownDriver(request, name);
  const { conductors } = servicesOf(request);
  // Under a cap below RPC 1.4 (pinned to zed) the API answers from its own copy of the schema:
  // every RAID interface's answer is the base interface's, the same.
  if (!conductors.canSendNodeActions()) return { ...RAID_LOGICAL_DISK_PROPERTIES };
  try {
    return await conductors.getRaidLogicalDiskProperties(name);
  } catch (error) {
    // As the real one: 404, RAID being a standard interface not every driver has.
    if (error instanceof UnsupportedDriverExtensionError) {
      throw new ClientSideError(error.message, 404);
    }
    throw error;
  }
};

/** Every field a driver body can have (for tests and docs). */
export const DRIVER_BODY_FIELDS = DRIVER_FIELDS;

export function registerDriverRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/drivers', { GET: list });
  declareRoute(app, '/v1/drivers/:driver_name', { GET: show });
  declareRoute(app, '/v1/drivers/:driver_name/properties', { GET: properties });
  declareRoute(app, '/v1/drivers/:driver_name/raid/logical_disk_properties', {
    GET: raidLogicalDiskProperties,
  });
}
