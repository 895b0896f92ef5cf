/**
 * Conductor 1.3, as Ironic 21.1 (zed) has it. The conductors table also has `online`, which is
 * not a field: only the store reads it.
 */
import { defineObjectType, f } from '../../objects/index.ts';
import { addedFields, unchanged } from './history.ts';
import { IRONIC_NAMESPACE, timestampFields } from './namespace.ts';

export const Conductor = defineObjectType({
  name: 'Conductor',
  namespace: IRONIC_NAMESPACE,
  fields: {
    id: f.integer(),
    drivers: f.listOfStrings({ nullable: true }),
    hostname: f.string(),
    conductor_group: f.string(),
    ...timestampFields(),
  },
  history: [
    unchanged('1.0', 'Initial version'),
    unchanged(
      '1.1',
      'Add register() and unregister(), make the context parameter to touch() optional',
    ),
    unchanged('1.2', 'Add register_hardware_interfaces() and unregister_all_hardware_interfaces()'),
    // The default conductor group is the empty string, as in the conductors table.
    addedFields('1.3', 'Add conductor_group field', { conductor_group: '' }),
  ],
});

export type ConductorObject = ReturnType<typeof Conductor.create>;
