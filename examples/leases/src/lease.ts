/**
 * The one versioned object of the leases service: a lease of a resource of the pool to a
 * holder. Every process converts it to the version its release pin allows before it writes
 * a row or sends it over RPC, so a process of the previous release can always read it.
 */
import { defineObjectType, f, ObjectRegistry } from 'baton/objects';

const namespace = { project: 'leases', serial: 'leases_object' };

export const Lease = defineObjectType({
  name: 'Lease',
  namespace,
  fields: {
    uuid: f.uuid(),
    resource: f.string(),
    holder: f.string(),
    pool: f.string(),
  },
  history: [
    { version: '1.0', note: 'Initial version' },
    // Release 2: a lease belongs to a pool. A lease written by release 1 knew one pool only,
    // the one now called `default`: that is its pool when read at 1.1.
    { version: '1.1', note: 'Add pool', added: ['pool'], unavailableValues: { pool: 'default' } },
  ],
});

/** What RPC may carry: the serializer rebuilds a Lease on the other side. */
export const OBJECTS = new ObjectRegistry(namespace, [Lease]);
