import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ALL_PROVISION_STATES,
  applyProvisionEvent,
  eventForVerb,
  InvalidTransitionError,
  isActionable,
  NOT_MACHINE_STATES,
  PROVISION_STATES,
  ProvisionEvent,
  type ProvisionState,
  ProvisionState as S,
  STATE_GROUPS,
  TRANSITIONS,
  VERB_EVENTS,
} from '../../../src/baremetal/common/provision-states.ts';
import { ironicPythonMissing, runIronicPython } from '../support/ironic-python.ts';

describe('provision state machine', () => {
  it('has one edge per (state, event) and only known states', () => {
    const seen = new Set<string>();
    for (const { from, event, to } of TRANSITIONS) {
      const key = `${from} ${event}`;
      assert.ok(!seen.has(key), `duplicate edge ${key}`);
      seen.add(key);
      assert.ok(from in PROVISION_STATES && to in PROVISION_STATES, key);
    }
  });

  it('walks a node from enroll to active and back to available', () => {
    let node = { provisionState: S.ENROLL as ProvisionState, targetProvisionState: null };
    const seen: string[] = [];
    const step = (event: ProvisionEvent, followUp = false) => {
      node = applyProvisionEvent(node, event, { followUp }) as typeof node;
      seen.push(`${node.provisionState}>${node.targetProvisionState}`);
    };
    step(ProvisionEvent.MANAGE, true);
    step(ProvisionEvent.DONE);
    step(ProvisionEvent.PROVIDE, true);
    step(ProvisionEvent.DONE);
    step(ProvisionEvent.DEPLOY, true);
    step(ProvisionEvent.WAIT);
    step(ProvisionEvent.RESUME);
    step(ProvisionEvent.DONE);
    step(ProvisionEvent.DELETE, true);
    step(ProvisionEvent.CLEAN);
    step(ProvisionEvent.DONE);
    assert.deepEqual(seen, [
      'verifying>manageable',
      'manageable>null',
      'cleaning>available',
      'available>null',
      'deploying>active',
      'wait call-back>active',
      'deploying>active',
      'active>null',
      'deleting>available',
      'cleaning>available',
      'available>null',
    ]);
  });

  it('keeps a named target through the transient states of a manual clean', () => {
    let node = applyProvisionEvent(
      { provisionState: S.MANAGEABLE, targetProvisionState: null },
      ProvisionEvent.CLEAN,
      { target: S.MANAGEABLE, followUp: true },
    );
    assert.deepEqual(node, { provisionState: S.CLEANING, targetProvisionState: S.MANAGEABLE });
    node = applyProvisionEvent(node, ProvisionEvent.MANAGE);
    assert.deepEqual(node, { provisionState: S.MANAGEABLE, targetProvisionState: null });
  });

  it('refuses an event with no edge, in automaton words, and refuses unstable targets', () => {
    assert.throws(
      () =>
        applyProvisionEvent(
          { provisionState: S.ENROLL, targetProvisionState: null },
          ProvisionEvent.DEPLOY,
        ),
      (error: unknown) =>
        error instanceof InvalidTransitionError &&
        error.message ===
          "Can not transition from state 'enroll' on event 'deploy' (no defined transition)",
    );
    assert.throws(() =>
      applyProvisionEvent(
        { provisionState: S.MANAGEABLE, targetProvisionState: null },
        ProvisionEvent.CLEAN,
        { target: S.CLEANING },
      ),
    );
    assert.equal(isActionable('active', 'deploy'), false);
    assert.equal(isActionable('deploy failed', 'deploy'), true);
    assert.equal(isActionable('nonsense', 'deploy'), false);
  });

  it('maps API verbs to events, rebuild to itself', () => {
    assert.equal(eventForVerb('active'), 'deploy');
    assert.equal(eventForVerb('undeploy'), 'delete');
    assert.equal(eventForVerb('rebuild'), 'rebuild');
    assert.equal(eventForVerb('toString'), 'toString');
  });
});

interface RealMachine {
  states: Record<string, { stable: boolean; target: string | null }>;
  transitions: [string, string, string][];
  targets: [string, string, string | null, string | null, string | null][];
  verbs: Record<string, string>;
  groups: Record<string, string[]>;
  constants: string[];
}

// Dumps the installed Ironic's machine: states, edges, the target after every edge for every
// starting target and requested target, VERBS, the named groups, and every string constant
// of states.py's provisioning section.
const DUMP = `
import json
from ironic.common import states
m = states.machine
stable = [s for s in m.states if m.is_stable(s)]
targets = []
for (start, event, end) in m:
    for initial in [None] + stable:
        for requested in [None] + stable:
            f = m.copy()
            f.initialize(start, target_state=initial)
            f.process_event(event, target_state=requested)
            targets.append([start, event, initial, requested, f.target_state])
print(json.dumps({
    'states': {s: {'stable': m.is_stable(s), 'target': m._states[s]['target']} for s in m.states},
    'transitions': list(m),
    'targets': targets,
    'verbs': states.VERBS,
    'groups': {
        'stable': list(states.STABLE_STATES),
        'unstable': list(states.UNSTABLE_STATES),
        'failure': sorted(states.FAILURE_STATES),
        'stuckTreatedAsFail': list(states.STUCK_STATES_TREATED_AS_FAIL),
        'updateAllowed': list(states.UPDATE_ALLOWED_STATES),
        'deleteAllowed': list(states.DELETE_ALLOWED_STATES),
    },
    'constants': [states.DEPLOYDONE, states.DELETED, states.REBUILD, states.DEPLOY, states.UNDEPLOY],
}))
`;

describe('provision state machine against the real Ironic 21.4.4', () => {
  const skip = ironicPythonMissing();

  it('has the same states, stability, targets and transitions', { skip }, async () => {
    const real = await runIronicPython<RealMachine>(DUMP);
    assert.deepEqual(
      Object.fromEntries(ALL_PROVISION_STATES.map((s) => [s, PROVISION_STATES[s]])),
      real.states,
    );
    const edge = (t: readonly string[]) => t.join(' -> ');
    assert.deepEqual(
      TRANSITIONS.map((t) => edge([t.from, t.event, t.to])).sort(),
      real.transitions.map(edge).sort(),
    );
    assert.equal(TRANSITIONS.length, 63);
    assert.deepEqual(NOT_MACHINE_STATES, real.constants);
  });

  it('sets the same target after every edge, from every target, for every request', {
    skip,
  }, async () => {
    const real = await runIronicPython<RealMachine>(DUMP);
    assert.ok(real.targets.length > 63 * 7);
    for (const [from, event, initial, requested, expected] of real.targets) {
      const after = applyProvisionEvent(
        {
          provisionState: from as ProvisionState,
          targetProvisionState: initial as ProvisionState | null,
        },
        event as ProvisionEvent,
        // followUp: the bare fsm's target, before TaskManager clears it on stable states
        { followUp: true, ...(requested ? { target: requested as ProvisionState } : {}) },
      );
      assert.equal(
        after.targetProvisionState,
        expected,
        `${from} ${event} ${initial} ${requested}`,
      );
    }
  });

  it('has the same verbs and named groups of states', { skip }, async () => {
    const real = await runIronicPython<RealMachine>(DUMP);
    assert.deepEqual({ ...VERB_EVENTS }, real.verbs);
    const ours = Object.fromEntries(
      Object.entries(STATE_GROUPS).map(([name, list]) => [name, [...list].sort()]),
    );
    const theirs = Object.fromEntries(
      Object.entries(real.groups).map(([name, list]) => [name, [...list].sort()]),
    );
    assert.deepEqual(ours, theirs);
  });
});
