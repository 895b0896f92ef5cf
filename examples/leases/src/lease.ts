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
  },
  history: [{ version: '1.0', note: 'Initial version' }],
});

/** What RPC may carry: the serializer rebuilds a Lease on the other side. */
export const OBJECTS = new ObjectRegistry(namespace, [Lease]);
