/**
 * A stand-in for the bare metal service's next release, as it would be written on this
 * toolkit: Node 1.38 adds a field (`next_note`, its own column, added by an expand migration of
 * release `bobcat`), the release mapping gets a `bobcat` entry, and its processes report
 * service version 3. With it a test plays the newer release beside this one: rows it writes
 * are at a version this code does not know, and it can go back to this release
 * (`baton db downgrade-rows --to antelope`) with the toolkit's own machinery.
 */
import { BAREMETAL_MIGRATIONS } from '../../src/baremetal/migrations/index.ts';
import { Node } from '../../src/baremetal/objects/index.ts';
import { ONLINE_MIGRATIONS } from '../../src/baremetal/online-migrations/index.ts';
import { BAREMETAL_SERVICE } from '../../src/baremetal/service.ts';
import {
  createOnlineMigrationRegistry,
  type MigrationSet,
  type VersionedTable,
} from '../../src/db/index.ts';
import { defineObjectType, f } from '../../src/objects/index.ts';
import { MASTER, type ReleaseMapping } from '../../src/releases/index.ts';
import { defineService, type ServiceDefinition } from '../../src/service/index.ts';

export const NEXT_RELEASE = 'bobcat';
export const NEXT_SERVICE_VERSION = 3;
export const NEXT_NODE_VERSION = '1.38';

/** Node as the next release defines it. */
export const NextNode = defineObjectType({
  name: Node.name,
  namespace: Node.namespace,
  fields: { ...Node.fields, next_note: f.string({ nullable: true }) },
  history: [
    ...Node.history,
    { version: NEXT_NODE_VERSION, note: 'Add next_note field', added: ['next_note'] },
  ],
  remotable: Node.remotable,
});

export const NEXT_MIGRATIONS: MigrationSet = {
  ...BAREMETAL_MIGRATIONS,
  releases: [...BAREMETAL_MIGRATIONS.releases, NEXT_RELEASE],
  migrations: [
    ...BAREMETAL_MIGRATIONS.migrations,
    {
      // Numbered far past this release's own, so that it stays the last as they are added.
      id: '9001_node_next_note',
      release: NEXT_RELEASE,
      description: "The next release's note on a node",
      operations: [
        { op: 'addColumn', table: 'nodes', column: { name: 'next_note', type: 'text' } },
      ],
    },
  ],
};

const released: ReleaseMapping = Object.fromEntries(
  Object.entries(BAREMETAL_SERVICE.releases).filter(([name]) => name !== MASTER),
);
const current = BAREMETAL_SERVICE.releases[BAREMETAL_SERVICE.release];
if (current === undefined) throw new Error(`no entry for ${BAREMETAL_SERVICE.release}`);

const NEXT_TABLES: readonly VersionedTable[] = (BAREMETAL_SERVICE.versionedTables ?? []).map(
  (table): VersionedTable => (table.type === Node ? { ...table, type: NextNode } : table),
);

/** The next release's service: this one's, with Node 1.38 and the `bobcat` release. */
export const NEXT_SERVICE: ServiceDefinition = defineService({
  ...BAREMETAL_SERVICE,
  release: NEXT_RELEASE,
  migrations: NEXT_MIGRATIONS,
  code: {
    ...BAREMETAL_SERVICE.code,
    objects: { ...BAREMETAL_SERVICE.code.objects, Node: NEXT_NODE_VERSION },
    serviceVersion: NEXT_SERVICE_VERSION,
  },
  releases: {
    ...released,
    [BAREMETAL_SERVICE.release]: current,
    [NEXT_RELEASE]: {
      ...current,
      serviceVersion: NEXT_SERVICE_VERSION,
      objects: { ...current.objects, Node: [NEXT_NODE_VERSION] },
    },
  },
  versionedTables: NEXT_TABLES,
  onlineMigrations: () =>
    createOnlineMigrationRegistry({
      service: BAREMETAL_SERVICE.name,
      migrations: ONLINE_MIGRATIONS,
      objectTables: NEXT_TABLES,
    }),
});
