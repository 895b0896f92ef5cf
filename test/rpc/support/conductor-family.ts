/**
 * A small conductor RPC API across two releases, for the RPC tests and the
 * benchmark. Release `old` serves RPC 1.1 and knows Node 1.14; `master`
 * serves 1.2 and Node 1.15 (the rolling-upgrade doc's meta/extra). The versions code
 * branches on are named once, in CONDUCTOR_RPC.
 */
import { VersionedObject } from '../../../src/objects/index.ts';
import type { ReleaseMapping } from '../../../src/releases/index.ts';
import {
  defineRpcVersions,
  type RemoteErrorTypes,
  type RpcClient,
  type RpcEndpoint,
  RpcError,
  type RpcMethod,
  type WireError,
} from '../../../src/rpc/index.ts';

export const CONDUCTOR_RPC = defineRpcVersions([
  { version: '1.0', note: 'get_node, update_node(node), touch(node_id) cast' },
  { version: '1.1', note: "update_node takes an optional 'reason'", name: 'updateReason' },
  { version: '1.2', note: 'set_meta(node, meta)', name: 'setMeta' },
]);

export const CONDUCTOR_RELEASES: ReleaseMapping = {
  old: { rpc: '1.1', objects: { Node: ['1.14'], NodeList: ['1.0'] } },
  master: { rpc: '1.2', objects: { Node: ['1.15'], NodeList: ['1.1'] } },
};

/** A domain error that crosses the wire as itself. */
export class NodeLockedError extends RpcError implements WireError {
  override name = 'NodeLockedError';
  readonly node: string;
  readonly holder: string;
  constructor(node: string, holder: string) {
    super(`node ${node} is locked by ${holder}`);
    this.node = node;
    this.holder = holder;
  }
  wireData() {
    return { node: this.node, holder: this.holder };
  }
}

export const CONDUCTOR_ERRORS: RemoteErrorTypes = {
  NodeLockedError: (_message, data) => new NodeLockedError(String(data.node), String(data.holder)),
};

/** What a conductor saw, for assertions. */
export interface Seen {
  readonly method: string;
  readonly version: string;
  readonly args: Record<string, unknown>;
  /** The changed fields of each object argument as it arrived. */
  readonly changes: Record<string, string[]>;
}

/** A conductor's endpoint at `version` (`1.1`: the old release, `1.2`: master). */
export function conductorEndpoint(
  version: '1.1' | '1.2',
  seen: Seen[],
  name = 'cond',
): RpcEndpoint {
  const record = (method: string, call: { version: string }, args: Record<string, unknown>) => {
    const changes: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(args))
      if (value instanceof VersionedObject) changes[name] = [...value.changedFields()].sort();
    seen.push({ method, version: call.version, args, changes });
  };
  const methods: Record<string, RpcMethod> = {
    get_node: {
      params: { node: 'required' },
      handle: (args, call) => {
        record('get_node', call, args);
        return args.node;
      },
    },
    update_node: {
      params: { node: 'required', reason: 'optional' },
      handle: (args, call) => {
        record('update_node', call, args);
        const node = args.node as VersionedObject;
        node.assign('power_state', 'power on');
        return node;
      },
    },
    touch: {
      params: { node_id: 'required' },
      handle: (args, call) => {
        record('touch', call, args);
      },
    },
    whoami: { params: {}, handle: () => name },
    sleep: {
      params: { ms: 'required' },
      handle: async (args, call) => {
        record('sleep', call, args); // a test can await the call being held
        await new Promise((resolve) => setTimeout(resolve, Number(args.ms)));
        return 'slept';
      },
    },
    lock: {
      params: { node_id: 'required' },
      handle: (args) => {
        throw new NodeLockedError(String(args.node_id), name);
      },
    },
    explode: {
      params: {},
      handle: () => {
        throw new TypeError('internal failure');
      },
    },
  };
  if (version === '1.2') {
    methods.set_meta = {
      params: { node: 'required', meta: 'required' },
      handle: (args, call) => {
        record('set_meta', call, args);
        const node = args.node as VersionedObject;
        node.assign('meta', args.meta);
        return node;
      },
    };
  }
  return { version, methods };
}

/** The API tier's side (Ironic's rpcapi): requests shaped by what the cap allows. */
export class ConductorApi {
  readonly client: RpcClient;
  constructor(client: RpcClient) {
    this.client = client;
  }

  updateNode(node: VersionedObject, reason?: string): Promise<unknown> {
    const V = CONDUCTOR_RPC.named;
    if (this.client.canSendVersion(V.updateReason)) {
      const args = reason === undefined ? { node } : { node, reason };
      return this.client.prepare({ version: V.updateReason }).call('update_node', args);
    }
    // An older conductor has no 'reason'.
    return this.client.prepare({ version: '1.0' }).call('update_node', { node });
  }

  setMeta(node: VersionedObject, meta: Record<string, unknown>): Promise<unknown> {
    const V = CONDUCTOR_RPC.named;
    if (!this.client.canSendVersion(V.setMeta))
      throw new RpcError('set_meta needs every conductor at RPC 1.2; unpin to use it');
    return this.client.prepare({ version: V.setMeta }).call('set_meta', { node, meta });
  }
}
