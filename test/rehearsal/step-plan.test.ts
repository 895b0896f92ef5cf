/** The rolling-upgrade doc's table as the rehearsal walks it. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  describeTier,
  fleetAfter,
  initialFleet,
  rehearsalSteps,
  stepsThereAndBack,
} from '../../src/rehearsal/step-plan.ts';

describe('rehearsal step plan', () => {
  it("has the rolling-upgrade doc's steps in order, then the online migrations and the upgrade check", () => {
    assert.deepEqual(
      rehearsalSteps().map((step) => step.id),
      ['0', '1.1', '1.2', '2.1', '2.2', '3.1', '3.2', '3.3', '3.4', 'done'],
    );
    const done = rehearsalSteps().at(-1);
    assert.deepEqual(
      done?.actions.map((a) => a.kind),
      ['online-migrations', 'upgrade-check'],
    );
    assert.deepEqual(rehearsalSteps()[0]?.actions, [{ kind: 'db-upgrade' }]);
  });

  it("gives after each step the fleet of the rolling-upgrade doc's table, in its words", () => {
    let fleet = initialFleet();
    const rows: string[] = [];
    for (const step of rehearsalSteps()) {
      fleet = fleetAfter(fleet, step);
      rows.push(`${step.id} | ${describeTier(fleet.api)} | ${describeTier(fleet.conductor)}`);
    }
    assert.deepEqual(rows, [
      '0 | all old | all old',
      '1.1 | all old | some old, some new pinned',
      '1.2 | all old | all new pinned',
      '2.1 | some old, some new pinned | all new pinned',
      '2.2 | all new pinned | all new pinned',
      '3.1 | all new pinned | some new pinned, some new',
      '3.2 | all new pinned | all new',
      '3.3 | some new pinned, some new | all new',
      '3.4 | all new | all new',
      'done | all new | all new',
    ]);
  });

  it('replaces one process per step, each exactly once per wave, for any tier size', () => {
    const steps = rehearsalSteps(3);
    assert.equal(steps.length, 2 + 4 * 3);
    assert.deepEqual(
      steps.filter((s) => s.id.startsWith('3.')).map((s) => s.id),
      ['3.1', '3.2', '3.3', '3.4', '3.5', '3.6'],
    );
    let fleet = initialFleet(3);
    for (const step of steps) fleet = fleetAfter(fleet, step);
    assert.deepEqual(fleet, { conductor: ['new', 'new', 'new'], api: ['new', 'new', 'new'] });
  });
});

describe('there and back', () => {
  it('walks forward to 2.2, then undoes each replacement in reverse, ending with the plan', () => {
    const steps = stepsThereAndBack('2.2');
    assert.deepEqual(
      steps.map((step) => step.id),
      [
        '0',
        '1.1',
        '1.2',
        '2.1',
        '2.2',
        'back to 2.1',
        'back to 1.2',
        'back to 1.1',
        'back to 0',
        'back',
      ],
    );
    let fleet = initialFleet();
    const rows: string[] = [];
    for (const step of steps) {
      fleet = fleetAfter(fleet, step);
      rows.push(`${step.id} | ${describeTier(fleet.api)} | ${describeTier(fleet.conductor)}`);
    }
    assert.deepEqual(rows.slice(4), [
      '2.2 | all new pinned | all new pinned',
      'back to 2.1 | some old, some new pinned | all new pinned',
      'back to 1.2 | all old | all new pinned',
      'back to 1.1 | all old | some old, some new pinned',
      'back to 0 | all old | all old',
      'back | all old | all old',
    ]);
    assert.deepEqual(steps.at(-1)?.actions, [{ kind: 'plan-at-start' }]);
    assert.ok(steps.every((step) => !step.actions.some((a) => a.kind === 'downgrade-rows')));
  });

  it('from 3.4: pinned again, the rows rewritten down at 2.2, then the previous release', () => {
    const steps = stepsThereAndBack('3.4');
    const back22 = steps.find((step) => step.id === 'back to 2.2');
    assert.deepEqual(back22?.actions, [
      { kind: 'replace', tier: 'conductor', index: 0, to: 'pinned' },
      { kind: 'downgrade-rows' },
    ]);
    let fleet = initialFleet();
    for (const step of steps) fleet = fleetAfter(fleet, step);
    assert.deepEqual(fleet, initialFleet());
  });

  it('refuses a step it cannot go back from', () => {
    assert.throws(
      () => stepsThereAndBack('done'),
      /no step 'done' to go back from: one of 1\.1, 1\.2, 2\.1, 2\.2, 3\.1/,
    );
    assert.throws(() => stepsThereAndBack('0'), RangeError);
  });
});
