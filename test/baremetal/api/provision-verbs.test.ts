import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BAREMETAL_FEATURE_VERSIONS } from '../../../src/baremetal/api/features.ts';
import {
  cannotPerformMessage,
  initialProvisionState,
  notUnderstoodMessage,
  shownProvisionState,
  stateVerbGate,
  VERB_ACTIONS,
  VERB_GATES,
  verbAction,
  verbActionableFrom,
  verbGate,
} from '../../../src/baremetal/api/provision-verbs.ts';
import { ironicPythonMissing, runIronicPython } from '../support/ironic-python.ts';

const minor = (gate: keyof typeof BAREMETAL_FEATURE_VERSIONS) =>
  Number(BAREMETAL_FEATURE_VERSIONS[gate].split('.')[1]);

describe('provision verbs', () => {
  it('gates words as the real lookup does: undeploy never, delete from 1.73', () => {
    assert.equal(verbGate('undeploy'), undefined);
    assert.equal(verbGate('active'), undefined);
    assert.equal(verbGate('rebuild'), undefined);
    assert.equal(verbGate('deploy'), 'deployUndeployVerbs');
    assert.equal(verbGate('delete'), 'deployUndeployVerbs');
    assert.equal(verbGate('constructor'), undefined);
    assert.equal(stateVerbGate('inspect wait', 'abort'), 'inspectAbort');
    assert.equal(stateVerbGate('clean wait', 'abort'), undefined);
  });

  it('passes the machine check for delete from active but names no action for it', () => {
    assert.equal(verbActionableFrom('active', 'delete'), true);
    assert.equal(verbAction('delete'), undefined);
    assert.equal(verbActionableFrom('active', 'deleted'), true);
    assert.equal(verbAction('deleted'), 'tearDown');
    assert.equal(verbActionableFrom('enroll', 'provide'), false);
    assert.equal(verbActionableFrom('manageable', 'provide'), true);
  });

  it('words refusals as the real service (observed on Ironic 21.4.4)', () => {
    assert.equal(
      cannotPerformMessage('undeploy', 'n1', 'enroll'),
      'The requested action "undeploy" can not be performed on node "n1" while it is in state "enroll".',
    );
    assert.equal(
      notUnderstoodMessage('delete'),
      'The requested action "delete" could not be understood.',
    );
  });

  it('shows available as null before 1.2 and inspect wait as inspecting before 1.39', () => {
    const at = (version: number) => (gate: keyof typeof BAREMETAL_FEATURE_VERSIONS) =>
      version >= minor(gate);
    assert.equal(shownProvisionState('available', at(1)), null);
    assert.equal(shownProvisionState('available', at(2)), 'available');
    assert.equal(shownProvisionState('inspect wait', at(38)), 'inspecting');
    assert.equal(shownProvisionState('inspect wait', at(39)), 'inspect wait');
    assert.equal(initialProvisionState(at(10)), 'available');
    assert.equal(initialProvisionState(at(11)), 'enroll');
  });
});

describe('provision verbs against the real Ironic 21.4.4', () => {
  const skip = ironicPythonMissing();

  it('has the real minimum versions and provisioning-action words', { skip }, async () => {
    const real = await runIronicPython<{ gates: Record<string, number>; actions: string[] }>(`
import json
from ironic.api.controllers.v1 import utils, node
print(json.dumps({'gates': utils.MIN_VERB_VERSIONS, 'actions': list(node.PROVISION_ACTION_STATES)}))
`);
    const ours = Object.fromEntries(
      Object.entries(VERB_GATES).map(([word, gate]) => [word, minor(gate)]),
    );
    assert.deepEqual(ours, real.gates);
    assert.deepEqual(
      Object.entries(VERB_ACTIONS)
        .filter(([, action]) => action === 'provisioningAction')
        .map(([word]) => word)
        .sort(),
      [...real.actions].sort(),
    );
  });
});
