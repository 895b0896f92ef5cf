/**
 * An RPC API's versions as data (placement's microversion list, Ironic's
 * rpcapi history): every version with a one-line note, oldest first; the last
 * is the latest. A version that code branches on gets a name, so method code
 * reads `client.canSendVersion(V.nodeMeta)` instead of a literal.
 */
import { assertRpcVersion, compareRpcVersions } from './rpc-version.ts';

/** One version of an RPC interface and what it changed. */
export interface RpcVersionStep<N extends string = string> {
  readonly version: string;
  readonly note: string;
  /** The name code uses for the change this version brought. */
  readonly name?: N;
}

/** An RPC interface's version history, checked. */
export interface RpcVersionsTable<N extends string> {
  /** The latest version: what an unpinned client sends, what an endpoint serves. */
  readonly latest: string;
  /** Version by name. */
  readonly named: Readonly<Record<N, string>>;
  readonly history: readonly RpcVersionStep<N>[];
}

/** Checks an RPC interface's version history (increasing versions, unique names) into its table. */
export function defineRpcVersions<const N extends string>(
  history: readonly RpcVersionStep<N>[],
): RpcVersionsTable<N> {
  if (history.length === 0) throw new RangeError('an RPC API needs at least one version');
  const named: Record<string, string> = {};
  history.forEach((step, i) => {
    assertRpcVersion(step.version, 'RPC version');
    const previous = history[i - 1];
    if (previous !== undefined && compareRpcVersions(previous.version, step.version) >= 0)
      throw new RangeError(`RPC version ${step.version} must come after ${previous.version}`);
    if (step.name !== undefined) {
      if (Object.hasOwn(named, step.name))
        throw new RangeError(`RPC version name '${step.name}' is used twice`);
      named[step.name] = step.version;
    }
  });
  const latest = (history[history.length - 1] as RpcVersionStep<N>).version;
  return { latest, named: named as Record<N, string>, history };
}
