/**
 * How the API tier reads PUT /v1/nodes/{node}/states/provision `{"target": ...}` and shows
 * provision states, per microversion, as the real Ironic 21.4.4 does (node.py's `provision`
 * and `_do_provision_action`, utils.py's `MIN_VERB_VERSIONS`). The order of the real checks,
 * which the handler keeps: the verb's gate (406), maintenance for active/rebuild, the state
 * machine (409 when the node is reserved, else 400 "can not be performed"), then the action
 * (400 "could not be understood" for a word that passed the machine but names no action).
 *
 * The machine itself is shared with the conductor (../common/provision-states.ts); version gates are
 * named here, never written as versions.
 */
import { eventForVerb, isActionable, ProvisionState } from '../common/provision-states.ts';
import type { BaremetalFeature, GateCheck } from './features.ts';

/**
 * The gate a `target` word needs. The real table is keyed by events but looked up with the
 * request's word, and Baton keeps the outcome: `undeploy` (event `delete`) needs no version,
 * while `delete` (not a word any action takes) is refused with 406 below 1.73.
 */
export const VERB_GATES: Readonly<Record<string, BaremetalFeature>> = {
  manage: 'manageableState',
  provide: 'manageableState',
  inspect: 'inspectState',
  abort: 'abortVerb',
  clean: 'manualClean',
  adopt: 'adoptVerb',
  rescue: 'rescue',
  unrescue: 'rescue',
  deploy: 'deployUndeployVerbs',
  delete: 'deployUndeployVerbs',
};

/** The gate `target` needs, if any. */
export function verbGate(target: string): BaremetalFeature | undefined {
  return Object.hasOwn(VERB_GATES, target) ? VERB_GATES[target] : undefined;
}

/** The further gate `abort` needs in `inspect wait` (406 below it), checked after the machine. */
export function stateVerbGate(state: string, target: string): BaremetalFeature | undefined {
  return state === ProvisionState.INSPECTWAIT && target === 'abort' ? 'inspectAbort' : undefined;
}

/** What the API asks the conductor for: one RPC method per kind. */
export type ProvisionAction =
  | 'deploy'
  | 'rebuild'
  | 'tearDown'
  | 'rescue'
  | 'unrescue'
  | 'inspect'
  | 'clean'
  | 'provisioningAction';

/** The words the real API acts on, and how. */
export const VERB_ACTIONS: Readonly<Record<string, ProvisionAction>> = {
  active: 'deploy',
  deploy: 'deploy',
  rebuild: 'rebuild',
  deleted: 'tearDown',
  undeploy: 'tearDown',
  rescue: 'rescue',
  unrescue: 'unrescue',
  inspect: 'inspect',
  clean: 'clean',
  // sent as do_provisioning_action with the word itself
  manage: 'provisioningAction',
  provide: 'provisioningAction',
  abort: 'provisioningAction',
  adopt: 'provisioningAction',
};

export function verbAction(target: string): ProvisionAction | undefined {
  return Object.hasOwn(VERB_ACTIONS, target) ? VERB_ACTIONS[target] : undefined;
}

/** Whether `target` is a transition the machine allows from `state` (the real pre-check). */
export function verbActionableFrom(state: string, target: string): boolean {
  return isActionable(state, eventForVerb(target));
}

/** The real InvalidStateRequested text when the machine refuses. */
export function cannotPerformMessage(target: string, node: string, state: string): string {
  return `The requested action "${target}" can not be performed on node "${node}" while it is in state "${state}".`;
}

/** The real text for a word the machine allows but no action takes (`delete`, `done`...). */
export function notUnderstoodMessage(target: string): string {
  return `The requested action "${target}" could not be understood.`;
}

/**
 * A provision state as a response at the request's version shows it: `available` was null
 * (the old NOSTATE) before 1.2, `inspect wait` was `inspecting` before 1.39.
 */
export function shownProvisionState(state: string | null, allows: GateCheck): string | null {
  if (state === ProvisionState.AVAILABLE && !allows('availableState')) return null;
  if (state === ProvisionState.INSPECTWAIT && !allows('inspectWaitState')) {
    return ProvisionState.INSPECTING;
  }
  return state;
}

/** The state a node is created in: `enroll` from 1.11, `available` before. */
export function initialProvisionState(allows: GateCheck): ProvisionState {
  return allows('enrollState') ? ProvisionState.ENROLL : ProvisionState.AVAILABLE;
}
