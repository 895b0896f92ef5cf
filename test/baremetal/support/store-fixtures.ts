/**
 * Store tests on each backend: a scratch database with the bare metal schema, a store on it
 * (unpinned unless told otherwise, with a clock the test can move), and small builders.
 */
import { before } from 'node:test';
import {
  type BaremetalStore,
  type BaremetalTables,
  createBaremetalStore,
  LATEST_VERSIONS,
  type StoreOptions,
} from '../../../src/baremetal/db/index.ts';
import { BAREMETAL_MIGRATIONS } from '../../../src/baremetal/migrations/index.ts';
import { Chassis, Node, type NodeObject, Port } from '../../../src/baremetal/objects/index.ts';
import { type Database, migrateToLatest } from '../../../src/db/index.ts';
import { type BackendContext, forEachBackend } from '../../db/support/backends.ts';

export interface StoreTestContext extends Omit<BackendContext, 'db'> {
  db(): Database<BaremetalTables>;
  /** The store, unpinned, on the test clock. */
  store(): BaremetalStore;
  /** Another store on the same database (other targets, another clock...). */
  storeWith(options: Partial<StoreOptions>): BaremetalStore;
  /** The test clock: `clock.now` is what the stores see as the current time. */
  readonly clock: { now: Date };
}

export function forEachStoreBackend(title: string, body: (ctx: StoreTestContext) => void): void {
  forEachBackend(title, (backend) => {
    const clock = { now: new Date('2026-03-01T12:00:00.000Z') };
    let store: BaremetalStore | undefined;
    const db = () => backend.db() as unknown as Database<BaremetalTables>;
    const storeWith = (options: Partial<StoreOptions>) =>
      createBaremetalStore(db(), { targets: LATEST_VERSIONS, now: () => clock.now, ...options });
    before(async () => {
      const result = await migrateToLatest(backend.db(), BAREMETAL_MIGRATIONS);
      if (result.error) throw result.error;
      store = storeWith({});
    });
    body({
      ...backend,
      db,
      clock,
      storeWith,
      store: () => {
        if (store === undefined) throw new Error('store not ready');
        return store;
      },
    });
  });
}

let serial = 0;

/** A unique name for this test run (tests of a suite share one database). */
export function unique(prefix: string): string {
  serial += 1;
  return `${prefix}-${process.pid}-${serial}`;
}

/** A MAC address unique in this run. */
export function uniqueMac(): string {
  serial += 1;
  const hex = (serial + process.pid * 1000).toString(16).padStart(8, '0').slice(-8);
  return `52:54:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}:${hex.slice(6, 8)}`;
}

export function createNode(
  store: BaremetalStore,
  fields: Parameters<typeof Node.create>[0] = {},
): Promise<NodeObject> {
  return store.nodes.create(
    Node.create({ driver: 'fake-hardware', name: unique('node'), ...fields }),
  );
}

export function createChassis(store: BaremetalStore, description = 'a chassis') {
  return store.chassis.create(Chassis.create({ description }));
}

export function createPort(
  store: BaremetalStore,
  nodeId: number,
  fields: Parameters<typeof Port.create>[0] = {},
) {
  return store.ports.create(Port.create({ node_id: nodeId, address: uniqueMac(), ...fields }));
}
