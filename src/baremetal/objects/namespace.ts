/**
 * What every bare metal object type shares with Ironic's `IronicObject`: the primitive keys
 * (`ironic_object.*`, namespace `ironic`), so real Ironic reads what Baton sends, and the two
 * timestamp fields every Ironic object inherits (declared last, where oslo puts base fields).
 */
import { f, type ObjectNamespace } from '../../objects/index.ts';

export const IRONIC_NAMESPACE: ObjectNamespace = { project: 'ironic', serial: 'ironic_object' };

export const timestampFields = () => ({
  created_at: f.dateTime({ nullable: true }),
  updated_at: f.dateTime({ nullable: true }),
});
