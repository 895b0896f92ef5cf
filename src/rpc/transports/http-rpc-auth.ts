/**
 * Who may call over the http transport. A client adds its credentials to every request; a
 * server checks them before it reads the body, and a request it refuses runs nothing. The
 * transport knows only these two interfaces: what the credentials are (a shared secret here, a
 * Keystone token in src/auth/rpc-auth.ts) is the service's choice, made in its composition root.
 *
 * The shared secret (`rpc_shared_secret`, a Baton extension) travels as
 * `Authorization: Bearer <secret>` and is compared in constant time (as digests, so its length
 * does not show either).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The credentials a client sends. */
export interface HttpRpcClientAuth {
  /** Headers (lower-case names) for the next request; may fetch or renew a token. */
  headers(): Promise<Readonly<Record<string, string>>> | Readonly<Record<string, string>>;
  /**
   * The server answered 401: forget what may be stale (a cached token). True when new
   * credentials may succeed, so the request is sent once more.
   */
  refused?(): boolean;
}

/** What a server decides about a request, from its headers alone. */
export type HttpRpcVerdict =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /** 401: no or bad credentials; 403: valid ones without the right; 503: cannot check now. */
      readonly status: 401 | 403 | 503;
      /** For the caller (the JSON-RPC error's message). */
      readonly message: string;
      /** For the server's log only. */
      readonly reason: string;
    };

/** The check a server makes of every request. */
export interface HttpRpcServerAuth {
  /** The verdict on a request's headers; throwing refuses it (503), never lets it through. */
  check(headers: IncomingHttpHeaders): Promise<HttpRpcVerdict> | HttpRpcVerdict;
  /** Releases what the check holds (connections to Keystone), when the transport closes. */
  close?(): void;
}

/** The verdict that lets a request through. */
export const ALLOWED: HttpRpcVerdict = { ok: true };

const digest = (secret: string) => createHash('sha256').update(secret).digest();

/** A client sending `rpc_shared_secret` as `Authorization: Bearer <secret>`. */
export function sharedSecretClientAuth(secret: string): HttpRpcClientAuth {
  const headers = { authorization: `Bearer ${secret}` };
  return { headers: () => headers };
}

/** A server wanting `Authorization: Bearer <secret>`, compared in constant time. */
export function sharedSecretServerAuth(secret: string): HttpRpcServerAuth {
  const expected = digest(secret);
  return {
    check(headers) {
      const header = headers.authorization ?? '';
      if (!header.startsWith('Bearer ')) {
        return {
          ok: false,
          status: 401,
          message: 'missing or wrong shared secret',
          reason: 'no shared secret (Authorization: Bearer)',
        };
      }
      if (!timingSafeEqual(digest(header.slice('Bearer '.length)), expected)) {
        return {
          ok: false,
          status: 401,
          message: 'missing or wrong shared secret',
          reason: 'a wrong shared secret',
        };
      }
      return ALLOWED;
    },
  };
}

/** Every client's headers together (a shared secret and a token go side by side). */
export function allClientAuths(auths: readonly HttpRpcClientAuth[]): HttpRpcClientAuth | undefined {
  if (auths.length <= 1) return auths[0];
  return {
    async headers() {
      const all = await Promise.all(auths.map((auth) => auth.headers()));
      return Object.assign({}, ...all) as Record<string, string>;
    },
    refused() {
      let retry = false;
      for (const auth of auths) if (auth.refused?.() === true) retry = true;
      return retry;
    },
  };
}

/** Every check must pass, in order; the first refusal is the answer. */
export function allServerAuths(auths: readonly HttpRpcServerAuth[]): HttpRpcServerAuth | undefined {
  if (auths.length <= 1) return auths[0];
  return {
    async check(headers) {
      for (const auth of auths) {
        const verdict = await auth.check(headers);
        if (!verdict.ok) return verdict;
      }
      return ALLOWED;
    },
    close() {
      for (const auth of auths) auth.close?.();
    },
  };
}
