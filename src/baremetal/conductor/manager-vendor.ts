/**
 * Vendor passthru (Ironic's vendor_passthru, driver_vendor_passthru and the two method lists):
 * a node's method runs on its conductor with the node taken shared, or exclusively when the
 * method requires it, after the method's HTTP method and its arguments are checked; a
 * hardware type's method runs on its default vendor interface with no node. An asynchronous
 * method is started in the background and answers nothing; a synchronous one answers its
 * return value.
 */
import { InvalidParameterError, IronicError, VendorPassthruError } from '../common/errors.ts';
import type {
  PassthruArgs,
  PassthruMethod,
  VendorInterface,
  VendorMethod,
} from '../drivers/interfaces/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import { withNodeTask } from './node-task.ts';

/** What a call answers: its return value, whether it ran in the background, attached or not. */
export interface PassthruAnswer {
  readonly return: unknown;
  readonly async: boolean;
  readonly attach: boolean;
}

/** get_vendor_passthru_metadata: every route's metadata, in the real key order. */
function metadataOf(routes: Readonly<Record<string, PassthruMethod>>, node: boolean) {
  return Object.fromEntries(
    Object.entries(routes).map(([name, route]) => [
      name,
      {
        http_methods: [...route.httpMethods],
        async: route.async,
        description: route.description,
        attach: route.attach,
        ...(node ? { require_exclusive_lock: (route as VendorMethod).requireExclusiveLock } : {}),
      },
    ]),
  );
}

/** The route of `method` accepting `httpMethod`, or the real InvalidParameterValue. */
function routeOf<T extends PassthruMethod>(
  routes: Readonly<Record<string, T>>,
  method: string,
  httpMethod: string,
): T {
  const route = Object.hasOwn(routes, method) ? routes[method] : undefined;
  if (route === undefined) throw new InvalidParameterError(`No handler for method ${method}`);
  if (!route.httpMethods.includes(httpMethod)) {
    throw new InvalidParameterError(`The method ${method} does not support HTTP ${httpMethod}`);
  }
  return route;
}

/** The passthru decorator: an error not the service's own becomes VendorPassthruException. */
async function wrapped(work: () => Promise<unknown>): Promise<unknown> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof IronicError) throw error;
    throw new VendorPassthruError(String((error as Error)?.message ?? error));
  }
}

export async function vendorPassthru(
  ctx: ConductorContext,
  nodeId: string,
  method: string,
  httpMethod: string,
  info: PassthruArgs,
): Promise<PassthruAnswer> {
  const purpose = 'calling vendor passthru';
  return withNodeTask(ctx, nodeId, { shared: true, purpose }, async (task) => {
    const vendor = task.driver.vendor;
    const http = httpMethod.toUpperCase();
    const route = routeOf(vendor.vendorRoutes, method, http);
    if (route.requireExclusiveLock) await task.upgradeLock();
    await vendor.validate(task, method, info);
    if (route.async) {
      task.spawnAfter({ name: method, run: async (t) => void (await route.call(t, http, info)) });
      return { return: null, async: true, attach: route.attach };
    }
    const value = await wrapped(() => route.call(task, http, info));
    return { return: value ?? null, async: false, attach: route.attach };
  });
}

/** The default vendor interface of a hardware type this conductor runs (DriverNotFound...). */
function driverVendor(ctx: ConductorContext, driverName: string): VendorInterface {
  const type = ctx.drivers.hardwareType(driverName);
  return ctx.drivers.getInterface(type, 'vendor', ctx.drivers.defaultInterface(type, 'vendor'));
}

export async function driverVendorPassthru(
  ctx: ConductorContext,
  driverName: string,
  method: string,
  httpMethod: string,
  info: PassthruArgs,
): Promise<PassthruAnswer> {
  const vendor = driverVendor(ctx, driverName);
  const http = httpMethod.toUpperCase();
  const route = routeOf(vendor.driverRoutes, method, http);
  await vendor.driverValidate(method, info);
  if (route.async) {
    ctx.pool.spawn(
      async () => void (await route.call(http, info)),
      (error) => ctx.log.error(`vendor_passthru failed with method ${method}: ${String(error)}`),
    );
    return { return: null, async: true, attach: route.attach };
  }
  const value = await wrapped(() => route.call(http, info));
  return { return: value ?? null, async: false, attach: route.attach };
}

export async function getNodeVendorPassthruMethods(
  ctx: ConductorContext,
  nodeId: string,
): Promise<Record<string, unknown>> {
  const purpose = 'listing vendor passthru methods';
  return withNodeTask(ctx, nodeId, { shared: true, purpose }, async (task) =>
    metadataOf(task.driver.vendor.vendorRoutes, true),
  );
}

export async function getDriverVendorPassthruMethods(
  ctx: ConductorContext,
  driverName: string,
): Promise<Record<string, unknown>> {
  return metadataOf(driverVendor(ctx, driverName).driverRoutes, false);
}
