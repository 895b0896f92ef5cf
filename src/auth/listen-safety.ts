/**
 * A safe default both API services check before they listen: an auth strategy that does not
 * check tokens (Placement's `noauth2`, the bare metal service's `noauth`) serves on loopback
 * only. Anyone who reaches such a server acts as whoever they name, so binding any other
 * address is refused, with a message, unless the operator sets the option that names the
 * risk. Pure.
 */
import { isIP } from 'node:net';
import { UnsafeListenError } from './errors.ts';

/** The option (`[api]` section) and its flag; both services use the same name. */
export const INSECURE_NOAUTH_OPTION = 'insecure_noauth_on_any_address';
/**
 * The command-line flag that lets a service without authentication listen on a non-loopback
 * address.
 */
export const INSECURE_NOAUTH_FLAG = '--insecure-noauth-on-any-address';

/** Whether only this machine can reach an address (127.0.0.0/8, ::1, localhost). */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const lower = bare.toLowerCase();
  if (lower === 'localhost') return true;
  if (isIP(lower) === 4) return lower.startsWith('127.');
  if (isIP(lower) === 6) {
    if (lower === '::1' || /^0{0,4}(:0{0,4}){6}:0{0,3}1$/.test(lower)) return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    return mapped?.[1]?.startsWith('127.') === true;
  }
  return false;
}

export interface ListenPlan {
  /** Which process, for the message: `placement-api`. */
  readonly binary: string;
  readonly host: string;
  /** The configured strategy, e.g. `noauth2`. */
  readonly authStrategy: string;
  /** Whether that strategy validates tokens (Keystone) or trusts what the client says. */
  readonly authenticates: boolean;
  /** `[api] insecure_noauth_on_any_address`. */
  readonly insecureNoauthOnAnyAddress: boolean;
  /** What it listens for, when not an API's requests (`RPC`), for the message. */
  readonly serving?: string;
  /** What anyone who reaches it could do, for the message (default: an API's). */
  readonly risk?: string;
  /** The ways out, for the message (default: an API's options). */
  readonly remedy?: string;
}

/**
 * Throws UnsafeListenError when an auth strategy that checks nothing would listen beyond
 * loopback without the option; a host name other than localhost counts as beyond (what it
 * resolves to is not known here).
 */
export function checkListenSafety(plan: ListenPlan): void {
  if (plan.authenticates || plan.insecureNoauthOnAnyAddress || isLoopbackAddress(plan.host)) {
    return;
  }
  const serving = plan.serving === undefined ? '' : ` for ${plan.serving}`;
  const risk =
    plan.risk ??
    'tokens are not checked, so anyone who can reach that address could act as any user, admin included';
  const remedy =
    plan.remedy ??
    'Listen on loopback (127.0.0.1 or ::1), set [api] auth_strategy = keystone, ' +
      `or accept the risk with ${INSECURE_NOAUTH_FLAG} ([api] ${INSECURE_NOAUTH_OPTION} = true)`;
  throw new UnsafeListenError(
    `${plan.binary} will not listen${serving} on ${plan.host} with auth_strategy ${plan.authStrategy}: ${risk}. ${remedy}`,
  );
}
