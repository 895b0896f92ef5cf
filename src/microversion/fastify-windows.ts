import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { sendVersionError } from './fastify-plugin.ts';
import type { VersionRange } from './version-list.ts';
import { CompiledWindows, type VersionWindow, type WindowSelector } from './version-windows.ts';

/**
 * One Fastify handler for a route implemented differently across versions. The windows are
 * validated here, when the route is declared; a request at a version no window covers gets the
 * service's 404, as Placement answers for an endpoint that does not exist yet at that version.
 * Needs `microversionPlugin` registered on the app. Takes `{min, max?}` windows (compiled here)
 * or windows already validated, such as `FeatureWindows` bounded by a features table's gates.
 */
export function windowedHandler(
  windows: readonly VersionWindow<RouteHandlerMethod>[] | WindowSelector<RouteHandlerMethod>,
  range?: VersionRange,
): RouteHandlerMethod {
  const compiled = isSelector(windows) ? windows : new CompiledWindows(windows, range);
  return function windowed(this: FastifyInstance, request, reply) {
    const resolved = request.microversion;
    const handler = compiled.select(resolved.version);
    if (handler !== undefined) return handler.call(this, request, reply);
    const error = request.server.microversion.notFound(resolved);
    return sendVersionError(request, reply, error, resolved);
  };
}

function isSelector<H>(
  windows: readonly VersionWindow<H>[] | WindowSelector<H>,
): windows is WindowSelector<H> {
  return !Array.isArray(windows);
}
