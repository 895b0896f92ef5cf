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

/** A tier of processes. */
export type Tier = 'conductor' | 'api';

// the rolling-upgrade doc's words for a tier are `baton upgrade plan`'s (src/service/upgrade-plan.ts).
export { type Build, describeTier } from '../service/upgrade-plan.ts';

/** What a step does: replace a process, or run a database command. */
export type StepAction =
  | { readonly kind: 'db-upgrade' }
  | { readonly kind: 'replace'; readonly tier: Tier; readonly index: number; readonly to: Build }
  | { readonly kind: 'online-migrations' }
  | { readonly kind: 'upgrade-check' }
  /** Going back past step 3.1: the rows the unpinned processes wrote, rewritten down. */
  | { readonly kind: 'downgrade-rows' }
  /** After going back: the new release's plan must place the deployment at step 0. */
  | { readonly kind: 'plan-at-start' };

/** A step of the rolling upgrade, as the rehearsal walks it. */
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

/** The rolling-upgrade doc's steps for `perTier` processes of each tier. */
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

/** The step ids the rehearsal may walk forward to and then back from (`--back-from`). */
export function backFromSteps(perTier: number = PROCESSES_PER_TIER): string[] {
  return rehearsalSteps(perTier)
    .map((step) => step.id)
    .filter((id) => id !== '0' && id !== 'done');
}

/**
 * Forward through the table to `backFrom`, then back to step 0 (docs/rehearsal.md, "Going
 * back"): each replacement undone in the reverse order, the previous build put back. Back
 * from a step after 2.2 (unpinned processes), every process is pinned again first, the rows
 * they wrote are rewritten down (`baton db downgrade-rows`), then the pinned ones are put
 * back. The walk ends with the new release's plan, which must place the deployment at 0.
 */
export function stepsThereAndBack(
  backFrom: string,
  perTier: number = PROCESSES_PER_TIER,
): readonly Step[] {
  const all = rehearsalSteps(perTier);
  const last = all.findIndex((step) => step.id === backFrom);
  if (last < 1 || all[last]?.id === 'done') {
    throw new RangeError(
      `no step '${backFrom}' to go back from: one of ${backFromSteps(perTier).join(', ')}`,
    );
  }
  const forward = all.slice(0, last + 1);
  const back: Step[] = [];
  let fleet = initialFleet(perTier);
  const fleets = forward.map((step) => {
    fleet = fleetAfter(fleet, step);
    return fleet;
  });
  for (let i = last; i >= 1; i--) {
    const step = forward[i] as Step;
    const before = fleets[i - 1] as Fleet;
    const actions: StepAction[] = step.actions.flatMap((action) =>
      action.kind === 'replace'
        ? [replace(action.tier, action.index, before[action.tier][action.index] as Build)]
        : [],
    );
    const target = forward[i - 1]?.id as string;
    // Back at 2.2 from a later step: every process pinned again, the rows they wrote go down.
    if (target === '2.2') actions.push({ kind: 'downgrade-rows' });
    back.push({
      id: `back to ${target}`,
      title: `back to step ${target}: ${describeBack(actions)}`,
      actions,
    });
  }
  back.push({
    id: 'back',
    title: "the new release's plan places the deployment at step 0",
    actions: [{ kind: 'plan-at-start' }],
  });
  return [...forward, ...back];
}

function describeBack(actions: readonly StepAction[]): string {
  return actions
    .map((action) =>
      action.kind === 'replace'
        ? `${action.tier === 'api' ? 'API' : 'conductor'} ${action.index + 1} to ${action.to === 'previous' ? 'the previous release' : action.to === 'pinned' ? 'the new release, pinned' : 'the new release'}`
        : action.kind,
    )
    .join(', ');
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
