/**
 * Trait 1.0 and TraitList 1.0, as Ironic 21.1 (zed) has them. A node's traits travel as a
 * TraitList in its `traits` field. `node_id` is a String field in Ironic, although the column
 * is an integer; Baton keeps the field's type, since peers read it.
 */
import { defineObjectType, f } from '../../objects/index.ts';
import { unchanged } from './history.ts';
import { IRONIC_NAMESPACE, timestampFields } from './namespace.ts';

export const Trait = defineObjectType({
  name: 'Trait',
  namespace: IRONIC_NAMESPACE,
  fields: {
    node_id: f.string(),
    trait: f.string(),
    ...timestampFields(),
  },
  history: [unchanged('1.0', 'Initial version')],
});

export const TraitList = defineObjectType({
  name: 'TraitList',
  namespace: IRONIC_NAMESPACE,
  fields: {
    objects: f.listOfObjects(() => Trait),
    ...timestampFields(),
  },
  history: [unchanged('1.0', 'Initial version')],
  childVersions: { '1.0': '1.0' },
});

export type TraitObject = ReturnType<typeof Trait.create>;
export type TraitListObject = ReturnType<typeof TraitList.create>;

/** The trait names of a list, in its order. */
export function traitNames(list: TraitListObject): string[] {
  return list.get('objects').map((trait) => trait.get('trait'));
}
