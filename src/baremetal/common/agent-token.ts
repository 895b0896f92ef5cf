/**
 * The ramdisk agent's rules (ironic/conductor/utils.py, ironic/common/states.py at 21.4.4): the
 * secret token a node's first lookup hands out and every heartbeat must carry, and the
 * provision states a lookup may find a node in. Pure: the token's randomness is the only
 * thing not computed from the arguments.
 */
import { randomBytes } from 'node:crypto';
import { InvalidParameterError } from './errors.ts';
import { ProvisionState } from './provision-states.ts';

/** The driver_internal_info key the token is kept under. */
export const AGENT_TOKEN_KEY = 'agent_secret_token';
/** Set beside the token when it was put in a boot image rather than handed out by lookup. */
export const AGENT_TOKEN_PREGENERATED_KEY = 'agent_secret_token_pregenerated';
/** What a lookup is handed once a token exists: an unusable value, never the token again. */
export const MASKED_AGENT_TOKEN = '******';

type Info = Readonly<Record<string, unknown>> | null | undefined;

/** is_agent_token_present: the node holds a token (of any value but null). */
export function isAgentTokenPresent(internalInfo: Info): boolean {
  const token = internalInfo?.[AGENT_TOKEN_KEY];
  return token !== undefined && token !== null;
}

/** is_agent_token_valid: a token was given and equals the node's; no token is never valid. */
export function isAgentTokenValid(internalInfo: Info, token: string | null | undefined): boolean {
  if (token === undefined || token === null) return false;
  return (internalInfo?.[AGENT_TOKEN_KEY] ?? null) === token;
}

/** secrets.token_urlsafe(): 32 random bytes, URL-safe base64 without padding (43 characters). */
export function newAgentToken(): string {
  return randomBytes(32).toString('base64url');
}

const S = ProvisionState;

/** LOOKUP_ALLOWED_STATES: where a ramdisk runs on the node. */
export const LOOKUP_ALLOWED_STATES: readonly ProvisionState[] = [
  S.DEPLOYING,
  S.DEPLOYWAIT,
  S.CLEANING,
  S.CLEANWAIT,
  S.INSPECTING,
  S.INSPECTWAIT,
  S.RESCUING,
  S.RESCUEWAIT,
];

/** FASTTRACK_LOOKUP_ALLOWED_STATES: with fast track the agent may stay up between operations. */
export const FASTTRACK_LOOKUP_ALLOWED_STATES: readonly ProvisionState[] = [
  S.ENROLL,
  S.MANAGEABLE,
  S.AVAILABLE,
  ...LOOKUP_ALLOWED_STATES,
];

const TRUE_STRINGS = ['1', 't', 'true', 'on', 'y', 'yes'];
const FALSE_STRINGS = ['0', 'f', 'false', 'off', 'n', 'no'];

/**
 * utils.fast_track_enabled: the node's `driver_info.fast_track` (oslo's strict booleans), else
 * `[deploy] fast_track`; InvalidParameterValue for another value.
 */
export function fastTrackEnabled(
  driverInfo: Readonly<Record<string, unknown>> | null | undefined,
  configured: boolean,
): boolean {
  const value = driverInfo?.fast_track;
  if (value === undefined || value === null) return configured;
  if (typeof value === 'boolean') return value;
  const text = String(value);
  const lowered = text.trim().toLowerCase();
  if (TRUE_STRINGS.includes(lowered)) return true;
  if (FALSE_STRINGS.includes(lowered)) return false;
  const acceptable = [...TRUE_STRINGS, ...FALSE_STRINGS]
    .sort()
    .map((word) => `'${word}'`)
    .join(', ');
  throw new InvalidParameterError(
    `Invalid value of fast_track: Unrecognized value '${text}', acceptable values are: ${acceptable}`,
  );
}

/**
 * conductor utils.fast_track_able: fast track on for the node and no error on record (the
 * storage interfaces Baton has all write the image); then a deploy or a clean keeps the
 * agent's token and URL for the next operation. A value fast_track_enabled refuses counts as
 * off here rather than failing the operation that was ending.
 */
export function fastTrackAble(
  node: { get(field: 'driver_info' | 'last_error'): unknown },
  configured: boolean,
): boolean {
  let enabled: boolean;
  try {
    enabled = fastTrackEnabled(
      node.get('driver_info') as Record<string, unknown> | null,
      configured,
    );
  } catch (error) {
    if (error instanceof InvalidParameterError) return false;
    throw error;
  }
  return enabled && node.get('last_error') === null;
}

/** LookupController.lookup_allowed. */
export function lookupAllowed(provisionState: string, fastTrack: boolean): boolean {
  const allowed = fastTrack ? FASTTRACK_LOOKUP_ALLOWED_STATES : LOOKUP_ALLOWED_STATES;
  return (allowed as readonly string[]).includes(provisionState);
}
