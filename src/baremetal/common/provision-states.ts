/**
 * The provision state machine of the real Ironic 21.4.4 (ironic/common/states.py on its
 * automaton-based fsm.py), as data: its 24 states, which are stable, the target each
 * transient state implies, its 15 events and 63 transitions. A test dumps the real machine
 * with the installed Python library and compares it transition by transition.
 *
 * Who sends what: API verbs (`manage`, `active`, `deleted`...) become events through
 * `VERB_EVENTS`; the conductor then moves the node on with the internal events (`done`,
 * `fail`, `wait`, `resume`, and `clean` from `deleting`).
 */

export const ProvisionState = {
  ENROLL: 'enroll',
  VERIFYING: 'verifying',
  MANAGEABLE: 'manageable',
  AVAILABLE: 'available',
  ACTIVE: 'active',
  DEPLOYING: 'deploying',
  DEPLOYWAIT: 'wait call-back',
  DEPLOYFAIL: 'deploy failed',
  DELETING: 'deleting',
  CLEANING: 'cleaning',
  CLEANWAIT: 'clean wait',
  CLEANFAIL: 'clean failed',
  ERROR: 'error',
  INSPECTING: 'inspecting',
  INSPECTWAIT: 'inspect wait',
  INSPECTFAIL: 'inspect failed',
  ADOPTING: 'adopting',
  ADOPTFAIL: 'adopt failed',
  RESCUE: 'rescue',
  RESCUING: 'rescuing',
  RESCUEWAIT: 'rescue wait',
  RESCUEFAIL: 'rescue failed',
  UNRESCUING: 'unrescuing',
  UNRESCUEFAIL: 'unrescue failed',
} as const;
export type ProvisionState = (typeof ProvisionState)[keyof typeof ProvisionState];

const S = ProvisionState;

/**
 * Words of the real states.py that are not states of the machine: `deleted` and `rebuild`
 * are API verbs, `deploy complete` a Juno-era target, `deploy` and `undeploy` the 1.73
 * aliases.
 */
export const NOT_MACHINE_STATES = ['deploy complete', 'deleted', 'rebuild', 'deploy', 'undeploy'];

export const ProvisionEvent = {
  MANAGE: 'manage',
  PROVIDE: 'provide',
  INSPECT: 'inspect',
  CLEAN: 'clean',
  DEPLOY: 'deploy',
  REBUILD: 'rebuild',
  DELETE: 'delete',
  ABORT: 'abort',
  ADOPT: 'adopt',
  RESCUE: 'rescue',
  UNRESCUE: 'unrescue',
  DONE: 'done',
  FAIL: 'fail',
  WAIT: 'wait',
  RESUME: 'resume',
} as const;
export type ProvisionEvent = (typeof ProvisionEvent)[keyof typeof ProvisionEvent];

const E = ProvisionEvent;

export interface StateInfo {
  /** A stable state changes only on a request (the real STABLE_STATES). */
  readonly stable: boolean;
  /** The stable state a node in this state is heading for; null for stable states. */
  readonly target: ProvisionState | null;
}

function stable(): StateInfo {
  return { stable: true, target: null };
}

function heading(target: ProvisionState): StateInfo {
  return { stable: false, target };
}

/** Every state of the machine, in the order the real one adds them. */
export const PROVISION_STATES: Readonly<Record<ProvisionState, StateInfo>> = {
  [S.ENROLL]: stable(),
  [S.MANAGEABLE]: stable(),
  [S.AVAILABLE]: stable(),
  [S.ACTIVE]: stable(),
  [S.ERROR]: stable(),
  [S.RESCUE]: stable(),
  [S.VERIFYING]: heading(S.MANAGEABLE),
  [S.DEPLOYING]: heading(S.ACTIVE),
  [S.DEPLOYWAIT]: heading(S.ACTIVE),
  [S.DEPLOYFAIL]: heading(S.ACTIVE),
  [S.CLEANING]: heading(S.AVAILABLE),
  [S.CLEANWAIT]: heading(S.AVAILABLE),
  [S.CLEANFAIL]: heading(S.AVAILABLE),
  [S.DELETING]: heading(S.AVAILABLE),
  [S.INSPECTING]: heading(S.MANAGEABLE),
  [S.INSPECTFAIL]: heading(S.MANAGEABLE),
  [S.INSPECTWAIT]: heading(S.MANAGEABLE),
  [S.ADOPTING]: heading(S.ACTIVE),
  [S.ADOPTFAIL]: heading(S.ACTIVE),
  [S.RESCUING]: heading(S.RESCUE),
  [S.RESCUEWAIT]: heading(S.RESCUE),
  [S.RESCUEFAIL]: heading(S.RESCUE),
  [S.UNRESCUING]: heading(S.ACTIVE),
  [S.UNRESCUEFAIL]: heading(S.ACTIVE),
};

export const ALL_PROVISION_STATES = Object.keys(PROVISION_STATES) as ProvisionState[];

export interface Transition {
  readonly from: ProvisionState;
  readonly event: ProvisionEvent;
  readonly to: ProvisionState;
}

function t(from: ProvisionState, event: ProvisionEvent, to: ProvisionState): Transition {
  return { from, event, to };
}

/** Every transition, grouped by the flow it belongs to. */
export const TRANSITIONS: readonly Transition[] = [
  // enroll: verifying the power credentials
  t(S.ENROLL, E.MANAGE, S.VERIFYING),
  t(S.VERIFYING, E.DONE, S.MANAGEABLE),
  t(S.VERIFYING, E.FAIL, S.ENROLL), // back to enroll, with last_error
  // deploying; `active` and `deploy` are both the deploy event, `rebuild` its own
  t(S.AVAILABLE, E.DEPLOY, S.DEPLOYING),
  t(S.DEPLOYING, E.FAIL, S.DEPLOYFAIL),
  t(S.DEPLOYING, E.WAIT, S.DEPLOYWAIT),
  t(S.DEPLOYING, E.DONE, S.ACTIVE),
  t(S.DEPLOYWAIT, E.RESUME, S.DEPLOYING),
  t(S.DEPLOYWAIT, E.FAIL, S.DEPLOYFAIL),
  t(S.DEPLOYFAIL, E.REBUILD, S.DEPLOYING),
  t(S.DEPLOYFAIL, E.DEPLOY, S.DEPLOYING),
  t(S.ACTIVE, E.REBUILD, S.DEPLOYING),
  t(S.ERROR, E.REBUILD, S.DEPLOYING),
  // tearing down, then cleaning
  t(S.ACTIVE, E.DELETE, S.DELETING),
  t(S.DEPLOYWAIT, E.DELETE, S.DELETING),
  t(S.DEPLOYFAIL, E.DELETE, S.DELETING),
  t(S.ERROR, E.DELETE, S.DELETING),
  t(S.DELETING, E.FAIL, S.ERROR),
  t(S.DELETING, E.CLEAN, S.CLEANING),
  // cleaning: automated (provide, tear down) ends available, manual (clean) manageable
  t(S.MANAGEABLE, E.PROVIDE, S.CLEANING),
  t(S.MANAGEABLE, E.CLEAN, S.CLEANING),
  t(S.CLEANING, E.DONE, S.AVAILABLE),
  t(S.CLEANING, E.MANAGE, S.MANAGEABLE),
  t(S.CLEANING, E.FAIL, S.CLEANFAIL),
  t(S.CLEANING, E.WAIT, S.CLEANWAIT),
  t(S.CLEANWAIT, E.RESUME, S.CLEANING),
  t(S.CLEANWAIT, E.FAIL, S.CLEANFAIL),
  t(S.CLEANWAIT, E.ABORT, S.CLEANFAIL),
  t(S.CLEANFAIL, E.MANAGE, S.MANAGEABLE),
  t(S.AVAILABLE, E.MANAGE, S.MANAGEABLE),
  // inspection
  t(S.MANAGEABLE, E.INSPECT, S.INSPECTING),
  t(S.INSPECTING, E.DONE, S.MANAGEABLE),
  t(S.INSPECTING, E.FAIL, S.INSPECTFAIL),
  t(S.INSPECTING, E.WAIT, S.INSPECTWAIT),
  t(S.INSPECTWAIT, E.DONE, S.MANAGEABLE),
  t(S.INSPECTWAIT, E.FAIL, S.INSPECTFAIL),
  t(S.INSPECTWAIT, E.ABORT, S.INSPECTFAIL),
  t(S.INSPECTFAIL, E.MANAGE, S.MANAGEABLE),
  t(S.INSPECTFAIL, E.INSPECT, S.INSPECTING),
  // adoption
  t(S.MANAGEABLE, E.ADOPT, S.ADOPTING),
  t(S.ADOPTING, E.DONE, S.ACTIVE),
  t(S.ADOPTING, E.FAIL, S.ADOPTFAIL),
  t(S.ADOPTFAIL, E.ADOPT, S.ADOPTING),
  t(S.ADOPTFAIL, E.MANAGE, S.MANAGEABLE),
  // rescue
  t(S.ACTIVE, E.RESCUE, S.RESCUING),
  t(S.RESCUING, E.DONE, S.RESCUE),
  t(S.RESCUING, E.WAIT, S.RESCUEWAIT),
  t(S.RESCUING, E.FAIL, S.RESCUEFAIL),
  t(S.RESCUEWAIT, E.RESUME, S.RESCUING),
  t(S.RESCUEWAIT, E.FAIL, S.RESCUEFAIL),
  t(S.RESCUEWAIT, E.ABORT, S.RESCUEFAIL),
  t(S.RESCUEWAIT, E.DELETE, S.DELETING),
  t(S.RESCUE, E.RESCUE, S.RESCUING),
  t(S.RESCUE, E.UNRESCUE, S.UNRESCUING),
  t(S.RESCUE, E.DELETE, S.DELETING),
  t(S.RESCUEFAIL, E.RESCUE, S.RESCUING),
  t(S.RESCUEFAIL, E.UNRESCUE, S.UNRESCUING),
  t(S.RESCUEFAIL, E.DELETE, S.DELETING),
  t(S.UNRESCUING, E.DONE, S.ACTIVE),
  t(S.UNRESCUING, E.FAIL, S.UNRESCUEFAIL),
  t(S.UNRESCUEFAIL, E.RESCUE, S.RESCUING),
  t(S.UNRESCUEFAIL, E.UNRESCUE, S.UNRESCUING),
  t(S.UNRESCUEFAIL, E.DELETE, S.DELETING),
];

const NEXT = new Map<string, ProvisionState>(
  TRANSITIONS.map(({ from, event, to }) => [`${from}\n${event}`, to]),
);

/** The state `event` moves a node in `from` to, or undefined when the machine has no such edge. */
export function nextProvisionState(
  from: ProvisionState,
  event: ProvisionEvent,
): ProvisionState | undefined {
  return NEXT.get(`${from}\n${event}`);
}

/** The real machine's `is_actionable_event`: does `event` lead anywhere from `state`? */
export function isActionable(state: string, event: string): boolean {
  return NEXT.has(`${state}\n${event}`);
}

export function isProvisionState(value: string): value is ProvisionState {
  return Object.hasOwn(PROVISION_STATES, value);
}

export function isStable(state: ProvisionState): boolean {
  return PROVISION_STATES[state].stable;
}

/** Raised for an event the machine has no edge for; the message is automaton's. */
export class InvalidTransitionError extends Error {
  readonly state: string;
  readonly event: string;

  constructor(state: string, event: string) {
    super(`Can not transition from state '${state}' on event '${event}' (no defined transition)`);
    this.name = 'InvalidTransitionError';
    this.state = state;
    this.event = event;
  }
}

export interface ProvisionPosition {
  readonly provisionState: ProvisionState;
  readonly targetProvisionState: ProvisionState | null;
}

export interface TransitionOptions {
  /** A target the caller names instead of the state's own (a manual clean ends `manageable`). */
  readonly target?: ProvisionState;
  /** Work follows in the background; a stable state keeps the target until it is done. */
  readonly followUp?: boolean;
}

/**
 * Where a node stands after `event`: its new state and `target_provision_state`, by the rules
 * of the real fsm.py and TaskManager.process_event. The target starts as the node's (or the
 * state's own when it has none), is dropped on reaching it, becomes the new state's own
 * target when it has one, or the caller's; a stable state reached with no work to follow
 * clears it.
 */
export function applyProvisionEvent(
  position: ProvisionPosition,
  event: ProvisionEvent,
  options: TransitionOptions = {},
): ProvisionPosition {
  const { provisionState: from } = position;
  const to = nextProvisionState(from, event);
  if (to === undefined) throw new InvalidTransitionError(from, event);
  let target = position.targetProvisionState ?? PROVISION_STATES[from].target;
  if (target === to) target = null;
  target = PROVISION_STATES[to].target ?? target;
  if (options.target !== undefined) {
    if (!isStable(options.target)) {
      throw new Error(`Target state '${options.target}' is not a 'stable' state`);
    }
    target = options.target;
  }
  if (!options.followUp && isStable(to)) target = null;
  return { provisionState: to, targetProvisionState: target };
}

/**
 * The API's verbs (PUT /nodes/{node}/states/provision `target`) and the event each one
 * sends (the real `VERBS`; `rebuild` is its own event and is not in it).
 */
export const VERB_EVENTS = {
  active: E.DEPLOY,
  deploy: E.DEPLOY,
  deleted: E.DELETE,
  undeploy: E.DELETE,
  manage: E.MANAGE,
  provide: E.PROVIDE,
  inspect: E.INSPECT,
  abort: E.ABORT,
  clean: E.CLEAN,
  adopt: E.ADOPT,
  rescue: E.RESCUE,
  unrescue: E.UNRESCUE,
} as const satisfies Record<string, ProvisionEvent>;
export type ProvisionVerb = keyof typeof VERB_EVENTS | 'rebuild';

/** The event an API `target` sends: its verb's, or the word itself (`rebuild`). */
export function eventForVerb(verb: string): string {
  return Object.hasOwn(VERB_EVENTS, verb) ? VERB_EVENTS[verb as keyof typeof VERB_EVENTS] : verb;
}

/** The real service's named groups of states, for the rules that use them. */
export const STATE_GROUPS = {
  /** States that change only on a request. */
  stable: ALL_PROVISION_STATES.filter(isStable),
  /** States the conductor moves on by itself. */
  unstable: [
    S.DEPLOYING,
    S.DEPLOYWAIT,
    S.CLEANING,
    S.CLEANWAIT,
    S.VERIFYING,
    S.DELETING,
    S.INSPECTING,
    S.INSPECTWAIT,
    S.ADOPTING,
    S.RESCUING,
    S.RESCUEWAIT,
    S.UNRESCUING,
  ],
  /** The `* failed` states: left only on a request. */
  failure: [S.DEPLOYFAIL, S.CLEANFAIL, S.INSPECTFAIL, S.RESCUEFAIL, S.UNRESCUEFAIL, S.ADOPTFAIL],
  /**
   * States a conductor cannot resume after its predecessor died: the one taking the node
   * over fails it (`fail` event, last_error set).
   */
  stuckTreatedAsFail: [
    S.DEPLOYING,
    S.CLEANING,
    S.VERIFYING,
    S.INSPECTING,
    S.ADOPTING,
    S.RESCUING,
    S.UNRESCUING,
    S.DELETING,
  ],
  /** Transient states in which a node may still be updated (PATCH). */
  updateAllowed: [
    S.DEPLOYFAIL,
    S.INSPECTING,
    S.INSPECTFAIL,
    S.INSPECTWAIT,
    S.CLEANFAIL,
    S.ERROR,
    S.VERIFYING,
    S.ADOPTFAIL,
    S.RESCUEFAIL,
    S.UNRESCUEFAIL,
  ],
  /** States in which a node may be deleted. */
  deleteAllowed: [S.MANAGEABLE, S.ENROLL, S.ADOPTFAIL],
} as const satisfies Record<string, readonly ProvisionState[]>;
