/** Versioned RPC between tiers: the public surface of src/rpc. */
export {
  DEFAULT_RPC_TIMEOUT_MS,
  type PrepareOptions,
  RpcClient,
  type RpcClientOptions,
} from './client.ts';
export {
  createTransport,
  DEFAULT_RPC_TRANSPORT,
  type RpcConfig,
  type RpcSettings,
  type RpcTransportKind,
  readRpcConfig,
  type TransportDeps,
} from './config.ts';
export {
  type RpcCallInfo,
  RpcDispatcher,
  type RpcEndpoint,
  type RpcMethod,
  type RpcParam,
} from './dispatcher.ts';
export * from './errors.ts';
export type { RpcContext, RpcReply, RpcRequest } from './message.ts';
export {
  outcomeOfClientError,
  outcomeOfReply,
  type RpcCallEvent,
  type RpcLogger,
  type RpcObserver,
  type RpcOutcome,
  stderrRpcLogger,
} from './observer.ts';
export { compareRpcVersions, isRpcVersion, rpcVersionWithin } from './rpc-version.ts';
export {
  defineRpcVersions,
  type RpcVersionStep,
  type RpcVersionsTable,
} from './rpc-versions-table.ts';
export { objectRpcSerializer, PLAIN_SERIALIZER, type RpcSerializer } from './serializer.ts';
export { RpcServer, type RpcServerOptions } from './server.ts';
export { AmqpTransport, type AmqpTransportOptions } from './transports/amqp-transport.ts';
export {
  type HttpRpcClientAuth,
  type HttpRpcServerAuth,
  type HttpRpcVerdict,
  sharedSecretClientAuth,
  sharedSecretServerAuth,
} from './transports/http-rpc-auth.ts';
export { HttpTransport, type HttpTransportOptions } from './transports/http-transport.ts';
export { LocalBus, LocalTransport } from './transports/local-transport.ts';
export type {
  RpcPeer,
  RpcPeerDirectory,
  RpcPeerRegistration,
} from './transports/peer-directory.ts';
export type { RpcListener, RpcListenTarget, RpcTransport } from './transports/transport.ts';
export {
  BUILT_IN_REMOTE_ERRORS,
  type RemoteErrorFactory,
  type RemoteErrorTypes,
  type WireFailure,
} from './wire-errors.ts';
