/**
 * No field lost across versions: for every field an object type gained after the previous
 * release (generated from the release mapping, so a field added later is covered without
 * editing this file), a value written by the new release survives a write by a process
 * pinned to the previous release, through both boundaries:
 *
 * - the database: the pinned side reads the row, changes another field and saves it (the
 *   row is then stamped at the previous release's version);
 * - the wire: the pinned side sends the object at its pinned version with another field
 *   changed, and the unpinned side, having received it, saves it (as a conductor does for
 *   an API's update).
 *
 * Then the new release reads the value back. Each type needs an adapter here (how to create,
 * read and save it, and which older field to change); a type without one fails, so a new
 * type cannot slip by. Every case runs on SQLite, PostgreSQL and MariaDB.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  type BaremetalStore,
  type BaremetalTables,
  createBaremetalStore,
  LATEST_VERSIONS,
} from '../../../src/baremetal/db/index.ts';
import { BAREMETAL_MIGRATIONS } from '../../../src/baremetal/migrations/index.ts';
import {
  BAREMETAL_OBJECT_TYPES,
  BAREMETAL_OBJECTS,
  Node,
  Port,
  Portgroup,
} from '../../../src/baremetal/objects/index.ts';
import { BAREMETAL_SERVICE } from '../../../src/baremetal/service.ts';
import { type Database, migrateToLatest, openDatabase } from '../../../src/db/index.ts';
import {
  ObjectSerializer,
  type ObjectType,
  type VersionedObject,
} from '../../../src/objects/index.ts';
import { previousRelease, ReleasePin } from '../../../src/releases/index.ts';
import { BACKENDS, backendAvailable, createScratchDatabase } from '../../db/support/backends.ts';

const PREVIOUS = previousRelease(BAREMETAL_SERVICE.releases) as string;
const pin = ReleasePin.resolve(BAREMETAL_SERVICE.releases, PREVIOUS);

interface Case {
  readonly type: ObjectType;
  readonly version: string;
  readonly field: string;
}

/** Every (type, field) added after the previous release; types the release lacks are new models. */
function casesAfterPreviousRelease(): { cases: Case[]; newModels: string[] } {
  const cases: Case[] = [];
  const newModels: string[] = [];
  const objects = BAREMETAL_SERVICE.releases[PREVIOUS]?.objects ?? {};
  for (const type of BAREMETAL_OBJECT_TYPES) {
    const known = objects[type.name]?.at(-1);
    if (known === undefined) {
      newModels.push(type.name);
      continue;
    }
    for (const step of type.history.slice(type.stepIndex(known) + 1))
      for (const field of step.added ?? []) cases.push({ type, version: step.version, field });
  }
  return { cases, newModels };
}

/** A value for the field unlike its unavailable one, by field kind. */
function sampleValue(type: ObjectType, field: string): unknown {
  const kind = (type.fields[field] as { type: { kind: string } }).type.kind;
  switch (kind) {
    case 'String':
      return `${field}-from-the-new-release`;
    case 'FlexibleDict':
      return { set_by: 'the new release' };
    case 'Boolean':
      return true;
    case 'Integer':
    case 'NonNegativeInteger':
      return 7;
    case 'UUID':
      return randomUUID();
    default:
      throw new Error(`${type.name}.${field}: no sample value for a ${kind} field yet`);
  }
}

interface Adapter {
  /** A new object (with whatever it belongs to) carrying `values`, written by `store`. */
  create(store: BaremetalStore, values: Record<string, unknown>): Promise<VersionedObject>;
  get(store: BaremetalStore, obj: VersionedObject): Promise<VersionedObject>;
  save(store: BaremetalStore, obj: VersionedObject): Promise<VersionedObject>;
  /** A field the previous release knows, changed by its side. */
  readonly touched: string;
  /** Fields read from elsewhere and never written with the object: their expected value. */
  readonly derived?: Readonly<Record<string, (obj: VersionedObject) => Promise<unknown>>>;
  readonly table: string;
}

let serial = 0;
const newNode = (store: BaremetalStore) =>
  store.nodes.create(Node.create({ driver: 'fake-hardware', name: `field-node-${++serial}` }));
const nodeUuidOf = (store: () => BaremetalStore) => async (obj: VersionedObject) =>
  (await store().nodes.get(Number(obj.get('node_id' as never)))).get('uuid');
const mac = () =>
  `52:54:00:${[0, 0, 0].map(() => (++serial % 256).toString(16).padStart(2, '0')).join(':')}`;

function adapters(newer: () => BaremetalStore): Record<string, Adapter> {
  return {
    Node: {
      table: 'nodes',
      touched: 'extra',
      create: (store, values) =>
        store.nodes.create(
          Node.create({ driver: 'fake-hardware', name: `field-node-${++serial}`, ...values }),
        ),
      get: (store, obj) => store.nodes.get(String(obj.get('uuid' as never))),
      save: (store, obj) => store.nodes.save(obj as never),
    },
    Port: {
      table: 'ports',
      touched: 'extra',
      derived: { node_uuid: nodeUuidOf(newer) },
      create: async (store, values) =>
        store.ports.create(
          Port.create({
            node_id: Number((await newNode(store)).get('id')),
            address: mac(),
            ...values,
          }),
        ),
      get: (store, obj) => store.ports.get(String(obj.get('uuid' as never))),
      save: (store, obj) => store.ports.save(obj as never),
    },
    Portgroup: {
      table: 'portgroups',
      touched: 'extra',
      derived: { node_uuid: nodeUuidOf(newer) },
      create: async (store, values) =>
        store.portgroups.create(
          Portgroup.create({
            node_id: Number((await newNode(store)).get('id')),
            address: mac(),
            ...values,
          }),
        ),
      get: (store, obj) => store.portgroups.get(String(obj.get('uuid' as never))),
      save: (store, obj) => store.portgroups.save(obj as never),
    },
  };
}

const { cases, newModels } = casesAfterPreviousRelease();

describe(`fields added after ${PREVIOUS}`, () => {
  test('are found in the release mapping (the list this file checks)', () => {
    const names = cases.map(({ type, version, field }) => `${type.name} ${version} ${field}`);
    // Listed so a reader of the test log sees what is checked; the generation is the point.
    console.log(`checked: ${names.join(', ')}; new models: ${newModels.join(', ') || 'none'}`);
    assert.ok(cases.some((c) => c.type === Node && c.field === 'shard'));
    assert.ok(newModels.includes('NodeInventory'));
  });
});

for (const backend of BACKENDS) {
  describe(`a field added after ${PREVIOUS} survives a pinned write [${backend}]`, async () => {
    const unavailable = await backendAvailable(backend);
    if (unavailable !== undefined) {
      describe(unavailable, { skip: unavailable }, () => {});
      return;
    }
    let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
    let db: Database<BaremetalTables>;
    let newer: BaremetalStore;
    let older: BaremetalStore;
    before(async () => {
      scratch = await createScratchDatabase(backend);
      db = (await openDatabase(scratch.url)) as unknown as Database<BaremetalTables>;
      const migrated = await migrateToLatest(db as unknown as Database, BAREMETAL_MIGRATIONS);
      if (migrated.error) throw migrated.error;
      newer = createBaremetalStore(db, { targets: LATEST_VERSIONS });
      older = createBaremetalStore(db, { targets: pin });
    });
    after(async () => {
      await db?.close();
      await scratch?.drop();
    });
    const byType = adapters(() => newer);
    const rowVersion = async (adapter: Adapter, obj: VersionedObject) =>
      (
        await db.kysely
          .selectFrom(adapter.table as never)
          .select('version' as never)
          .where('uuid' as never, '=', obj.get('uuid' as never) as never)
          .executeTakeFirstOrThrow()
      ).version;

    for (const { type, version, field } of cases) {
      const name = `${type.name}.${field} (${version})`;
      /** The object the new release wrote with the field set, and what must read back. */
      const writeNewer = async () => {
        const adapter = byType[type.name];
        assert.ok(adapter, `no adapter for ${type.name}: add one above`);
        const derived = adapter.derived?.[field];
        if (derived !== undefined) {
          const written = await adapter.create(newer, {});
          return { adapter, written, expected: await derived(written) };
        }
        const value = sampleValue(type, field);
        return {
          adapter,
          written: await adapter.create(newer, { [field]: value }),
          expected: value,
        };
      };

      test(`${name}: through the database`, async () => {
        const { adapter, written, expected } = await writeNewer();
        // The pinned side reads it, changes a field its release knows, saves.
        const seen = await adapter.get(older, written);
        seen.assign(adapter.touched, { changed_by: PREVIOUS });
        await adapter.save(older, seen);
        assert.equal(
          await rowVersion(adapter, written),
          pin.objectVersion(type.name, type.version),
        );
        const back = await adapter.get(newer, written);
        assert.deepEqual(back.get(field as never), expected);
        assert.deepEqual(back.get(adapter.touched as never), { changed_by: PREVIOUS });
      });

      test(`${name}: over the wire`, async () => {
        const { adapter, written, expected } = await writeNewer();
        const seen = await adapter.get(older, written);
        seen.assign(adapter.touched, { sent_by: PREVIOUS });
        const sent = JSON.parse(
          JSON.stringify(new ObjectSerializer(BAREMETAL_OBJECTS, pin).serializeEntity(seen)),
        );
        assert.equal(field in sent['ironic_object.data'], false, 'the pinned side cannot send it');
        const received = new ObjectSerializer(BAREMETAL_OBJECTS).deserializeEntity(
          sent,
        ) as VersionedObject;
        await adapter.save(newer, received);
        assert.equal(await rowVersion(adapter, written), type.version);
        const back = await adapter.get(newer, written);
        assert.deepEqual(back.get(field as never), expected);
        assert.deepEqual(back.get(adapter.touched as never), { sent_by: PREVIOUS });
      });
    }
  });
}
