/**
 * A short tour of the toolkit on embedded defaults (no database, no broker):
 * a new release pinned to the old one during a rolling upgrade, seen through
 * its objects (RPC and database) and its API microversions.
 */
import Fastify from 'fastify';
import {
  MicroversionClient,
  microversionPlugin,
  VersionNegotiator,
} from '../microversion/index.ts';
import {
  defineObjectType,
  f,
  ObjectRegistry,
  ObjectSerializer,
  toPrimitive,
  type VersionedObject,
  versionChangesForDb,
} from '../objects/index.ts';
import { capsInForce, type ReleaseMapping } from '../releases/index.ts';

const NAMESPACE = { project: 'ironic', serial: 'ironic_object' };

/** Node 1.15 adds `meta`, which replaces the deprecated `extra` (the rolling-upgrade doc's example). */
const Node = defineObjectType({
  name: 'Node',
  namespace: NAMESPACE,
  fields: {
    uuid: f.uuid(),
    driver: f.string(),
    extra: f.flexibleDict({ nullable: true }),
    meta: f.flexibleDict({ nullable: true }),
  },
  history: [
    { version: '1.14', note: 'Baseline' },
    {
      version: '1.15',
      note: "Add 'meta', replacing the deprecated 'extra'",
      added: ['meta'],
      upgrade(node) {
        if (node.isSet('extra')) {
          node.assign('meta', node.get('extra'));
          node.assign('extra', null);
        }
      },
      downgrade(node) {
        if (node.isSet('meta')) node.assign('extra', node.get('meta'));
      },
    },
  ],
});

const RELEASES: ReleaseMapping = {
  '2026.1': { api: '1.5', rpc: '1.40', objects: { Node: ['1.14'] } },
  master: { api: '1.9', rpc: '1.41', objects: { Node: ['1.15'] } },
};

const IRONIC_HEADERS = {
  legacyName: 'X-OpenStack-Ironic-API-Version',
  minimumName: 'X-OpenStack-Ironic-API-Minimum-Version',
  maximumName: 'X-OpenStack-Ironic-API-Maximum-Version',
};

export async function runDemo(out: (line: string) => void = console.log): Promise<void> {
  const show = (title: string, value: unknown): void => {
    out(`\n== ${title}\n${JSON.stringify(value, null, 2)}`);
  };
  // The pin, resolved once into the caps in force that every boundary below is handed.
  const caps = capsInForce(RELEASES, '2026.1');
  out(`Release pin: ${caps.release} (API max ${caps.apiMax}, RPC cap ${caps.rpcCap})`);

  const node = Node.create({
    uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123',
    driver: 'ipmi',
    meta: { rack: 'R12' },
  });
  show('A Node in this (new) process, at its latest version', toPrimitive(node));

  const registry = new ObjectRegistry(NAMESPACE, [Node]);
  const sent = new ObjectSerializer(registry, caps.objectTargets).serializeEntity(node);
  show('Sent over RPC while pinned: version 1.14, meta moved to extra, changes kept', sent);

  const received = new ObjectSerializer(registry).deserializeEntity(sent) as VersionedObject;
  show('Received by an unpinned peer: back at 1.15, conversion marked as changes', {
    version: received.version,
    meta: received.get('meta'),
    changed: [...received.changedFields()],
  });

  show(
    'Written to the database while pinned (row stays readable by 2026.1)',
    versionChangesForDb(node, caps.objectTargets),
  );

  const app = Fastify();
  await app.register(microversionPlugin, {
    negotiator: new VersionNegotiator({
      serviceType: 'baremetal',
      min: '1.1',
      max: '1.9',
      pinnedMax: caps.apiMax,
      headers: { mode: 'both', ...IRONIC_HEADERS },
      malformedStatus: 406,
      formatError: (report) => ({ error_message: JSON.stringify({ faultstring: report.detail }) }),
    }),
  });
  app.get('/v1/nodes', async (request) => ({ nodes: [], version: request.microversion.text }));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const client = new MicroversionClient({
      endpoint: `${address}/v1`,
      serviceType: 'baremetal',
      headers: { mode: 'legacy', ...IRONIC_HEADERS },
      supported: { min: '1.1', max: '1.9' },
    });
    const answer = await client.request('/nodes');
    show(
      'A client that knows 1.9 asks a server pinned to 1.5: it negotiates down (use case 7A of the "Ironic Microversions" specification, docs/design.md)',
      {
        sent: answer.sent,
        negotiated: answer.negotiated,
        version: answer.version,
        body: await answer.response.json(),
      },
    );
  } finally {
    await app.close();
  }
}
