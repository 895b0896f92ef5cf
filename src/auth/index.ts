/**
 * Authentication for the toolkit's services: Keystone tokens validated as keystonemiddleware's
 * auth_token validates them, the credentials a policy engine reads, the Fastify hook, and the
 * safe default that keeps a service without real authentication on loopback.
 */

export { bcryptHash, bcryptVerify } from './bcrypt.ts';
export {
  AuthenticationRequiredError,
  IdentityServiceUnavailableError,
  KEYSTONE_UNAUTHORIZED_BODY,
  UnsafeListenError,
} from './errors.ts';
export { answerAuthenticationRequired, registerAuthHook } from './fastify-auth.ts';
export {
  BASIC_REALM,
  HttpBasicAuthError,
  HttpBasicAuthenticator,
  type HttpBasicAuthenticatorOptions,
  httpBasicErrorBody,
  validateUserFile,
} from './http-basic.ts';
export { IdentityClient, type IdentityClientOptions } from './identity-client.ts';
export { type KeystoneAuthConfig, keystoneAuthConfigOf } from './keystone-auth-config.ts';
export {
  type AuthOutcome,
  type AuthRequest,
  KeystoneAuthenticator,
  type KeystoneAuthenticatorOptions,
  type RequestAuthenticator,
} from './keystone-authenticator.ts';
export {
  KEYSTONE_AUTHTOKEN_DEFAULTS,
  KEYSTONE_AUTHTOKEN_OPTIONS,
  type KeystoneAuthtokenSettings,
} from './keystone-options.ts';
export {
  checkListenSafety,
  INSECURE_NOAUTH_FLAG,
  INSECURE_NOAUTH_OPTION,
  isLoopbackAddress,
} from './listen-safety.ts';
export {
  credentialsFromHeaders,
  type HeaderBag,
  policyValuesOf,
  type RequestCredentials,
  type ServiceCredentials,
  tokenScopeOf,
} from './request-credentials.ts';
export { keystoneRpcClientAuth, keystoneRpcServerAuth } from './rpc-auth.ts';
