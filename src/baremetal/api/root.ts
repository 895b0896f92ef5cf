/**
 * Version discovery: `/` (outside versioning: any method, any version header, no version
 * headers in the answer) and `/v1` (GET only; its links per version). Links to resources this
 * release does not implement (none today) are left out: their routes
 * answer 404 here (docs/baremetal.md, "API tier").
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Handler } from './context.ts';
import { ClientSideError } from './errors.ts';
import { FEATURES } from './features.ts';
import { buildUrl, type Link, publicUrl } from './links.ts';
import { sendResult } from './routing.ts';

function versionDocument(request: FastifyRequest) {
  const base = publicUrl(request);
  const negotiator = request.server.baremetalVersions;
  return {
    id: 'v1',
    links: [{ href: buildUrl(base, 'v1', '', true), rel: 'self' }],
    status: 'CURRENT',
    min_version: negotiator.minText,
    version: negotiator.maxText,
  };
}

function resourceLinks(base: string, resource: string): Link[] {
  return [
    { href: buildUrl(base, resource, ''), rel: 'self' },
    { href: buildUrl(base, resource, '', true), rel: 'bookmark' },
  ];
}

const root: Handler = async (request) => {
  const version = versionDocument(request);
  return {
    name: 'OpenStack Ironic API',
    description:
      'Ironic is an OpenStack project which enables the provision and management of baremetal machines.',
    default_version: version,
    versions: [version],
  };
};

const v1: Handler = async (request) => {
  if (request.method !== 'GET') {
    // pecan.abort(405) inside the handler: answered as a fault with WebOb's text.
    throw new ClientSideError(
      'The server could not comply with the request since it is either malformed or otherwise incorrect.',
      405,
    );
  }
  const base = publicUrl(request);
  const body: Record<string, unknown> = {
    id: 'v1',
    links: [
      { href: buildUrl(base, 'v1', '', true), rel: 'self' },
      {
        href: 'https://docs.openstack.org//ironic/latest/contributor//webapi.html',
        rel: 'describedby',
        type: 'text/html',
      },
    ],
    media_types: {
      base: 'application/json',
      type: 'application/vnd.openstack.ironic.v1+json',
    },
    chassis: resourceLinks(base, 'chassis'),
    nodes: resourceLinks(base, 'nodes'),
    ports: resourceLinks(base, 'ports'),
    drivers: resourceLinks(base, 'drivers'),
    version: versionDocument(request),
  };
  if (request.microversion.atLeast(FEATURES.portgroups)) {
    body.portgroups = resourceLinks(base, 'portgroups');
  }
  if (request.microversion.atLeast(FEATURES.ramdiskEndpoints)) {
    body.lookup = resourceLinks(base, 'lookup');
    body.heartbeat = resourceLinks(base, 'heartbeat');
  }
  if (request.microversion.atLeast(FEATURES.volume)) {
    body.volume = resourceLinks(base, 'volume');
  }
  if (request.microversion.atLeast(FEATURES.conductors)) {
    body.conductors = resourceLinks(base, 'conductors');
  }
  if (request.microversion.atLeast(FEATURES.allocations)) {
    body.allocations = resourceLinks(base, 'allocations');
  }
  if (request.microversion.atLeast(FEATURES.events)) {
    body.events = resourceLinks(base, 'events');
  }
  if (request.microversion.atLeast(FEATURES.deployTemplates)) {
    body.deploy_templates = resourceLinks(base, 'deploy_templates');
  }
  if (request.microversion.atLeast(FEATURES.nodeShard)) {
    body.shards = resourceLinks(base, 'shards');
  }
  return body;
};

export function registerRootRoutes(app: FastifyInstance): void {
  app.route({
    method: ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'],
    url: '/',
    handler: async (request, reply) => sendResult(reply, await root(request, reply)),
  });
  app.route({
    method: ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'],
    url: '/v1',
    handler: async (request, reply) => sendResult(reply, await v1(request, reply)),
  });
}
