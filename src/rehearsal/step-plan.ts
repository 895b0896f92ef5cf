/**
 * The rolling-upgrade table of docs/design.md as data: which process is replaced by which build at each
 * step, and what the fleet runs afterwards. Pure.
 *
 * | step | API                             | conductor                       |
 * | 0    | all previous (db upgrade done)  | all previous                    |
 * | 1.1  | all previous                    | one new pinned                  |
 * | 1.2  | all previous                    | all new pinned                  |
 * | 2.1  | one new pinned                  | all new pinned                  |
 * | 2.2  | all new pinned                  | all new pinned                  |
 * | 3.1  | all new pinned                  | one new unpinned                |
 * | 3.2  | all new pinned                  | all new unpinned                |
 * | 3.3  | one new unpinned                | all new unpinned                |
 * | 3.4  | all new unpinned                | all new unpinned                |
 * | done | online data migrations to completion, then the upgrade check    |
 */

import type { Build } from '../service/upgrade-plan.ts';

export type Tier = 'conductor' | 'api';

// the rolling-upgrade doc's words for a tier are `baton upgrade plan`'s (src/service/upgrade-plan.ts).
export { type Build, describeTier } from '../service/upgrade-plan.ts';

export type StepAction =
  | { readonly kind: 'db-upgrade' }
  | { readonly kind: 'replace'; readonly tier: Tier; readonly index: number; readonly to: Build }
  | { readonly kind: 'online-migrations' }
  | { readonly kind: 'upgrade-check' };

export interface Step {
  readonly id: string;
  readonly title: string;
  readonly actions: readonly StepAction[];
}

/** Two of each tier, as the rehearsal runs them. */
export const PROCESSES_PER_TIER = 2;

const replace = (tier: Tier, index: number, to: Build): StepAction => ({
  kind: 'replace',
  tier,
  index,
  to,
});

export function rehearsalSteps(perTier: number = PROCESSES_PER_TIER): readonly Step[] {
  const indexes = Array.from({ length: perTier }, (_, i) => i);
  const wave = (phase: number, first: number, tier: Tier, to: Build): Step[] =>
    indexes.map((i) => ({
      id: `${phase}.${first + i}`,
      title: `${tier === 'api' ? 'API' : 'conductor'} ${i + 1} ${to === 'pinned' ? 'to the new release, pinned' : 'unpinned'}`,
      actions: [replace(tier, i, to)],
    }));
  return [
    { id: '0', title: 'db upgrade with the new code', actions: [{ kind: 'db-upgrade' }] },
    ...wave(1, 1, 'conductor', 'pinned'),
    ...wave(2, 1, 'api', 'pinned'),
    // Conductors first, so that an unpinned API only offers what the conductors can do.
    ...wave(3, 1, 'conductor', 'new'),
    ...wave(3, perTier + 1, 'api', 'new'),
    {
      id: 'done',
      title: 'online data migrations to completion, then the upgrade check',
      actions: [{ kind: 'online-migrations' }, { kind: 'upgrade-check' }],
    },
  ];
}

/** The build each process runs: `conductor[i]`, `api[i]`. */
export interface Fleet {
  readonly conductor: readonly Build[];
  readonly api: readonly Build[];
}

export function initialFleet(perTier: number = PROCESSES_PER_TIER): Fleet {
  return {
    conductor: Array.from({ length: perTier }, () => 'previous'),
    api: Array.from({ length: perTier }, () => 'previous'),
  };
}

/** The fleet after a step's actions. */
export function fleetAfter(fleet: Fleet, step: Step): Fleet {
  let next = fleet;
  for (const action of step.actions) {
    if (action.kind !== 'replace') continue;
    const tier = next[action.tier].map((build, i) => (i === action.index ? action.to : build));
    next = { ...next, [action.tier]: tier };
  }
  return next;
}
