/**
 * The load a rehearsal keeps on the bare metal API through the balancer: reads (lists, shows,
 * port lists), node creates, PATCHes of `extra`, port creates and full provisioning cycles
 * (manage, provide, deploy, undeploy), at one microversion both releases serve. Once an API of
 * the new release serves its own versions (step 3.3 on), what only the new release can do is
 * asked of it directly: a node's shard set at 1.82, the node read back at 1.82 and its
 * inventory at 1.81 (nodes are created with an inventory in `extra`, the previous release's
 * place for one), each answer compared with what was acknowledged. Every request is recorded
 * with its outcome; nothing is retried (docs/rehearsal.md: a 409 "node is locked" counts as a
 * failure, although the real ironicclient would retry it). Each worker owns its nodes and
 * works on one at a time, so the generator never races itself. A shared pacer keeps the whole
 * at the target rate.
 */
import { randomInt } from 'node:crypto';
import type { Ledger } from './ledger.ts';
import { drawWeighted, mixTotal, PacedWorkers } from './paced-workers.ts';
import { type LoadAnswer, sendRecorded } from './recorded-request.ts';
import type { LoadSettings } from './rehearsed-service.ts';
import type { RequestKind } from './request-log.ts';

/** The rehearsal's load settings, with the ledger the acknowledged writes go in. */
export interface LoadOptions extends Omit<LoadSettings, 'latestMayGoDown'> {
  readonly ledger: Ledger;
  readonly pollIntervalMs?: number;
  /** How long a node may take to reach the state it was sent to. */
  readonly stateTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /**
   * Whether the version `latest` answers may go down (going back); by default a lower one
   * than already seen is a failed outcome.
   */
  readonly latestMayGoDown?: boolean;
}

/** The mix, in weights: an operation is drawn for each turn of a worker. */
export const LOAD_MIX = {
  read: 40,
  nodeCreate: 8,
  nodePatch: 20,
  portCreate: 12,
  cycle: 20,
  /** Only once an API of the new release serves its versions; a plain read before. */
  shardSet: 6,
  newRead: 6,
  /** `latest` through the balancer: the version served must never go down. */
  latest: 4,
} as const;

/** The microversions of what only the new release serves: shards, and the node inventory. */
export const SHARD_MICROVERSION = '1.82';
export const INVENTORY_MICROVERSION = '1.81';

type Operation = keyof typeof LOAD_MIX;

/** Draws an operation by weight from a number in [0, total). */
export function drawOperation(roll: number): Operation {
  return drawWeighted(LOAD_MIX, roll, 'read');
}

const MIX_TOTAL = mixTotal(LOAD_MIX);

/** The steps of a full cycle from each starting state: verb, then the state it ends in. */
export const CYCLE_FROM: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  enroll: [
    ['manage', 'manageable'],
    ['provide', 'available'],
    ['active', 'active'],
    ['deleted', 'available'],
  ],
  manageable: [
    ['provide', 'available'],
    ['active', 'active'],
    ['deleted', 'available'],
  ],
  available: [
    ['active', 'active'],
    ['deleted', 'available'],
  ],
  active: [['deleted', 'available']],
};

/** Whether microversion `a` is above `b` (`1.82` above `1.80`). */
export function higher(a: string, b: string): boolean {
  const [am = 0, an = 0] = a.split('.').map(Number);
  const [bm = 0, bn = 0] = b.split('.').map(Number);
  return am > bm || (am === bm && an > bn);
}

interface OwnNode {
  readonly uuid: string;
  state: string;
  /** A node that failed to reach a state is left alone afterwards. */
  broken: boolean;
}

export class LoadGenerator extends PacedWorkers {
  readonly #options: LoadOptions;
  /** The highest version `latest` was answered at so far, and when. */
  #latest: { version: string; at: number } | undefined;
  #names = 0;
  #macs = 0;
  #values = 0;
  readonly #macPrefix = `52:54:${randomInt(256).toString(16).padStart(2, '0')}`;

  constructor(options: LoadOptions) {
    super(options);
    this.#options = options;
  }

  /** A worker stopped finishes its cycle to its end first. */
  protected async work(worker: number): Promise<void> {
    const own: OwnNode[] = [];
    // Once an API serves the new release, each worker's first turns are on one node: a shard
    // set there, a PATCH of its extra through the balancer (half of them reach the API still
    // pinned, in step 3.3: the write that must not erase the shard), then the node read back at
    // 1.82 with its shard. No step, however short, passes without this.
    const firstOnNewRelease: Operation[] = ['shardSet', 'nodePatch', 'newRead'];
    let focus: OwnNode | undefined;
    while (!this.stopping) {
      const usable = own.filter((node) => !node.broken);
      const first =
        usable.length > 0 && this.newReleaseApis.length > 0 && firstOnNewRelease.length > 0;
      const operation =
        usable.length === 0
          ? 'nodeCreate'
          : first
            ? (firstOnNewRelease.shift() as Operation)
            : drawOperation(randomInt(MIX_TOTAL));
      if (first) focus ??= usable[randomInt(usable.length)];
      const node = (first ? focus : usable[randomInt(Math.max(1, usable.length))]) as OwnNode;
      try {
        if (operation === 'nodeCreate') await this.#createNode(worker, own);
        else if (operation === 'nodePatch') await this.#patchNode(node);
        else if (operation === 'portCreate') await this.#createPort(node);
        else if (operation === 'cycle') await this.#cycle(node);
        else if (operation === 'shardSet' && this.newReleaseApis.length > 0)
          await this.#setShard(node);
        else if (operation === 'newRead' && this.newReleaseApis.length > 0)
          await this.#readNew(node);
        else if (operation === 'latest') await this.#readLatest();
        else await this.#read(node);
      } catch (error) {
        // A bug of the generator itself must not pass for a quiet rehearsal.
        this.#options.log.failOutcome(`worker ${worker}: ${String(error)}`);
      }
    }
  }

  async #request(
    kind: RequestKind,
    method: string,
    path: string,
    expected: number,
    body?: unknown,
    at: { baseUrl?: () => string | undefined; microversion?: string } = {},
  ): Promise<LoadAnswer | undefined> {
    await this.pacer.slot();
    // Chosen once the slot comes: an API of the new release may have gone meanwhile (going
    // back), and then there is nothing to ask it.
    const baseUrl = at.baseUrl === undefined ? this.#options.baseUrl : at.baseUrl();
    if (baseUrl === undefined) return undefined;
    return sendRecorded(this.#options.log, {
      kind,
      method,
      url: `${baseUrl}${path}`,
      expected,
      headers: {
        'X-OpenStack-Ironic-API-Version': at.microversion ?? this.#options.microversion,
      },
      ...(body === undefined ? {} : { body }),
      timeoutMs: this.#options.requestTimeoutMs ?? 30_000,
    });
  }

  async #createNode(worker: number, own: OwnNode[]): Promise<void> {
    const n = ++this.#names;
    const name = `${this.#options.runId}-w${worker}-${n}`;
    const extra = { created_by: this.#options.runId };
    // Every other node comes with an inventory where the previous release kept one, as long
    // as no API serves the new release's own place for it (from then on, nothing writes the
    // old place: the online migration empties it for good).
    const inventory =
      n % 2 === 0 && this.newReleaseApis.length === 0
        ? {
            inventory: { cpu: { count: 2 + (n % 30) }, memory: { physical_mb: 1024 * n } },
            plugin_data: { rehearsal: this.#options.runId },
          }
        : undefined;
    const answer = await this.#request('node-create', 'POST', '/v1/nodes', 201, {
      name,
      driver: 'fake-hardware',
      extra: { ...extra, ...inventory },
    });
    if (answer === undefined) return;
    const uuid = String(answer.body.uuid);
    const state = String(answer.body.provision_state);
    this.#options.ledger.nodeCreated({
      uuid,
      name,
      extra,
      ...(inventory === undefined ? {} : { inventory }),
      state,
      microversion: this.#options.microversion,
    });
    own.push({ uuid, state, broken: false });
  }

  /** `latest` through the balancer: the version answered never goes below one seen before. */
  async #readLatest(): Promise<void> {
    const answer = await this.#request('latest', 'GET', '/v1', 200, undefined, {
      microversion: 'latest',
    });
    const version = answer?.headers.get('x-openstack-ironic-api-version');
    if (version === undefined || version === null) return;
    const seen = this.#latest;
    if (seen !== undefined && higher(seen.version, version) && !this.#options.latestMayGoDown) {
      this.#options.log.failOutcome(
        `latest went down: ${version} now, ${seen.version} at ${new Date(seen.at).toISOString()}`,
      );
    }
    if (seen === undefined || higher(version, seen.version)) {
      this.#latest = { version, at: Date.now() };
    }
  }

  /** A shard, which only the new release's API 1.82 can set, on one of the worker's nodes. */
  async #setShard(node: OwnNode): Promise<void> {
    const value = `shard-${++this.#values % 7}`;
    const answer = await this.#request(
      'shard-set',
      'PATCH',
      `/v1/nodes/${node.uuid}`,
      200,
      [{ op: 'add', path: '/shard', value }],
      { baseUrl: this.newReleaseApi, microversion: SHARD_MICROVERSION },
    );
    if (answer === undefined) return;
    if (answer.body.shard !== value) {
      this.#options.log.failOutcome(
        `PATCH of ${node.uuid} answered shard ${JSON.stringify(answer.body.shard)}`,
      );
    }
    this.#options.ledger.shardSet(node.uuid, value, SHARD_MICROVERSION);
  }

  /** The node at 1.82 and its inventory at 1.81, compared with what was acknowledged. */
  async #readNew(node: OwnNode): Promise<void> {
    const expected = this.#options.ledger.nodes.get(node.uuid);
    const baseUrl = this.newReleaseApi;
    const shown = await this.#request('show-new', 'GET', `/v1/nodes/${node.uuid}`, 200, undefined, {
      baseUrl,
      microversion: SHARD_MICROVERSION,
    });
    if (shown !== undefined && (shown.body.shard ?? null) !== (expected?.shard?.value ?? null)) {
      this.#options.log.failOutcome(
        `node ${node.uuid} shows shard ${JSON.stringify(shown.body.shard)}, the acknowledged one is ${JSON.stringify(expected?.shard?.value ?? null)}`,
      );
    }
    const inventory = expected?.inventory?.value;
    const read = await this.#request(
      'inventory',
      'GET',
      `/v1/nodes/${node.uuid}/inventory`,
      inventory === undefined ? 404 : 200,
      undefined,
      { baseUrl, microversion: INVENTORY_MICROVERSION },
    );
    if (
      read !== undefined &&
      inventory !== undefined &&
      JSON.stringify(read.body) !== JSON.stringify(inventory)
    ) {
      this.#options.log.failOutcome(
        `node ${node.uuid} answers inventory ${JSON.stringify(read.body).slice(0, 200)}, created with ${JSON.stringify(inventory).slice(0, 200)}`,
      );
    }
  }

  async #patchNode(node: OwnNode): Promise<void> {
    const value = `v${++this.#values}`;
    const answer = await this.#request('node-patch', 'PATCH', `/v1/nodes/${node.uuid}`, 200, [
      { op: 'add', path: '/extra/rehearsal', value },
    ]);
    if (answer === undefined) return;
    const extra = answer.body.extra as Record<string, unknown> | undefined;
    if (extra?.rehearsal !== value) {
      this.#options.log.failOutcome(
        `PATCH of ${node.uuid} answered extra ${JSON.stringify(extra)}`,
      );
    }
    this.#options.ledger.extraSet(node.uuid, 'rehearsal', value, this.#options.microversion);
  }

  async #createPort(node: OwnNode): Promise<void> {
    const n = ++this.#macs;
    const bytes = [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
    const address = `${this.#macPrefix}:${bytes.map((b) => b.toString(16).padStart(2, '0')).join(':')}`;
    const answer = await this.#request('port-create', 'POST', '/v1/ports', 201, {
      node_uuid: node.uuid,
      address,
    });
    if (answer === undefined) return;
    this.#options.ledger.portCreated({
      uuid: String(answer.body.uuid),
      address,
      nodeUuid: node.uuid,
      microversion: this.#options.microversion,
    });
  }

  async #read(node: OwnNode): Promise<void> {
    const pick = randomInt(3);
    if (pick === 0) await this.#request('list', 'GET', '/v1/nodes?limit=20', 200);
    else if (pick === 1) await this.#request('show', 'GET', `/v1/nodes/${node.uuid}`, 200);
    else await this.#request('port-list', 'GET', `/v1/ports?node=${node.uuid}`, 200);
  }

  /** Walks the node to `active` and back to `available`, waiting for each state. */
  async #cycle(node: OwnNode): Promise<void> {
    for (const [verb, state] of CYCLE_FROM[node.state] ?? []) {
      const sent = await this.#request(
        'provision',
        'PUT',
        `/v1/nodes/${node.uuid}/states/provision`,
        202,
        { target: verb },
      );
      if (sent === undefined) return;
      if (!(await this.#waitFor(node, verb, state))) return;
    }
  }

  async #waitFor(node: OwnNode, verb: string, state: string): Promise<boolean> {
    const deadline = Date.now() + (this.#options.stateTimeoutMs ?? 60_000);
    const poll = this.#options.pollIntervalMs ?? 100;
    for (;;) {
      const answer = await this.#request('poll', 'GET', `/v1/nodes/${node.uuid}`, 200);
      if (answer !== undefined) {
        const current = String(answer.body.provision_state);
        const target = answer.body.target_provision_state;
        if (current === state && target === null) {
          node.state = state;
          this.#options.ledger.stateReached(node.uuid, state);
          return true;
        }
        if (current.endsWith('failed') || current === 'error') {
          return this.#broken(
            node,
            current,
            `'${verb}' ended in '${current}': ${String(answer.body.last_error)}`,
          );
        }
      }
      if (Date.now() > deadline) {
        return this.#broken(node, node.state, `'${verb}' did not reach '${state}' in time`);
      }
      await new Promise((resolve) => setTimeout(resolve, poll));
    }
  }

  #broken(node: OwnNode, state: string, why: string): false {
    node.broken = true;
    node.state = state;
    this.#options.ledger.stateReached(node.uuid, state);
    this.#options.log.failOutcome(`node ${node.uuid}: ${why}`);
    return false;
  }
}
