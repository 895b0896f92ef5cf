/**
 * Two races an Ironic-compatible service must survive without losing work (issue 24 §2), as
 * scenarios any client can run: the benchmark runs them against Baton and the real Ironic
 * 21.4.4 and prints both services' counts; the fault tests run them against Baton and assert
 * its counts are 0.
 *
 * - updates at once: many PATCHes of different keys of one node's `extra` (or appending to one
 *   list in it), alone or among power and provision actions, all sent together; every PATCH
 *   answered 2xx must have its value in the node afterwards ("acknowledged updates lost"
 *   counts those that do not);
 * - a conductor killed during deploys: nodes deploying (the fake deploy slowed down) when the
 *   conductor is SIGKILLed, and a new conductor started in its place; every node must reach a
 *   state no work is pending in ("left transitional" counts those that do not), and the time
 *   from the new conductor's start until the last one does is "time to settle".
 */

/** One answer: its status and decoded body. */
export interface RaceReply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: scenarios read arbitrary response bodies
  readonly body: any;
}

/** How a scenario talks to the API (an HTTP client, or a test's `app.inject`). */
export interface RaceClient {
  call(method: string, path: string, body?: unknown): Promise<RaceReply>;
}

/** What a scenario needs of the service's processes. */
export interface ConductorControl {
  /** SIGKILLs the conductor (index 0) and waits for its end. */
  killConductor(index: number): Promise<void>;
  /** Starts it again (same host, same configuration); resolves once it has started. */
  restartConductor(index: number): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** States the conductor moves a node on from by itself: work is pending on the node. */
export const TRANSITIONAL_STATES: readonly string[] = [
  'deploying',
  'wait call-back',
  'cleaning',
  'clean wait',
  'verifying',
  'deleting',
  'inspecting',
  'inspect wait',
  'adopting',
  'rescuing',
  'rescue wait',
  'unrescuing',
];

interface Timed {
  readonly reply: RaceReply;
  readonly start: number;
  readonly end: number;
}

async function timed(call: () => Promise<RaceReply>): Promise<Timed> {
  const start = performance.now();
  const reply = await call();
  return { reply, start, end: performance.now() };
}

/** The most requests in flight at one moment. */
export function maxInFlight(intervals: readonly { start: number; end: number }[]): number {
  const events = intervals.flatMap((i) => [
    [i.start, 1],
    [i.end, -1],
  ]);
  events.sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number));
  let now = 0;
  let most = 0;
  for (const [, delta] of events) {
    now += delta as number;
    most = Math.max(most, now);
  }
  return most;
}

function countStatuses(replies: readonly Timed[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { reply } of replies) counts[reply.status] = (counts[reply.status] ?? 0) + 1;
  return counts;
}

async function expect(
  client: RaceClient,
  statuses: readonly number[],
  method: string,
  path: string,
  body?: unknown,
): Promise<RaceReply> {
  const reply = await client.call(method, path, body);
  if (!statuses.includes(reply.status)) {
    throw new Error(`${method} ${path}: HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return reply;
}

export interface UpdateRaceOptions {
  /** PATCHes, each adding its own key to `extra` (or its value to one list: `append`). */
  readonly patches: number;
  /** Each PATCH appends its value to `extra/log` (one key for all) instead. */
  readonly append?: boolean;
  /** Power actions sent among them (power on and off in turn). */
  readonly powerActions?: number;
  /** Provision actions sent among them (provide and manage in turn, from `manageable`). */
  readonly provisionActions?: number;
}

export interface UpdateRaceResult {
  readonly sent: number;
  /** Answers to the PATCHes by status, e.g. `{200: 28, 409: 12}`. */
  readonly patchStatuses: Record<string, number>;
  /** Answers to the other actions by status. */
  readonly actionStatuses: Record<string, number>;
  /** PATCHes answered 2xx. */
  readonly acknowledged: number;
  /** Values of acknowledged PATCHes missing from the node afterwards. */
  readonly lost: readonly string[];
  /** The most requests in flight at one moment (the race happened if it is well above 1). */
  readonly maxInFlight: number;
}

/**
 * One node (moved to `manageable` first when provision actions take part), then every request
 * at once: PATCH `add /extra/k<i>` for each i, with the power and provision actions spread
 * among them. The node's `extra` is read once every answer is in.
 */
export async function raceUpdates(
  client: RaceClient,
  options: UpdateRaceOptions,
): Promise<UpdateRaceResult> {
  const created = await expect(client, [201], 'POST', '/v1/nodes', {
    driver: 'fake-hardware',
    ...(options.append ? { extra: { log: [] } } : {}),
  });
  const uuid = String(created.body.uuid);
  const provisions = options.provisionActions ?? 0;
  if (provisions > 0) {
    await expect(client, [202], 'PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'manage' });
    await waitForNodes(client, [uuid], (node) => node.provision_state === 'manageable', 60_000);
  }
  const patches: (() => Promise<RaceReply>)[] = [];
  for (let i = 0; i < options.patches; i++) {
    patches.push(() =>
      client.call('PATCH', `/v1/nodes/${uuid}`, [
        { op: 'add', path: options.append ? '/extra/log/-' : `/extra/k${i}`, value: `v${i}` },
      ]),
    );
  }
  const actions: (() => Promise<RaceReply>)[] = [];
  for (let i = 0; i < (options.powerActions ?? 0); i++) {
    const target = i % 2 === 0 ? 'power on' : 'power off';
    actions.push(() => client.call('PUT', `/v1/nodes/${uuid}/states/power`, { target }));
  }
  for (let i = 0; i < provisions; i++) {
    const target = i % 2 === 0 ? 'provide' : 'manage';
    actions.push(() => client.call('PUT', `/v1/nodes/${uuid}/states/provision`, { target }));
  }
  // Interleaved, so that every kind is in flight from the first moment.
  const order: { kind: 'patch' | 'action'; index: number }[] = [];
  const total = patches.length + actions.length;
  for (let i = 0, p = 0, a = 0; i < total; i++) {
    const patchDue =
      a >= actions.length || (p < patches.length && p * actions.length <= a * patches.length);
    if (patchDue) order.push({ kind: 'patch', index: p++ });
    else order.push({ kind: 'action', index: a++ });
  }
  const results = await Promise.all(
    order.map(({ kind, index }) =>
      timed((kind === 'patch' ? patches : actions)[index] as () => Promise<RaceReply>).then(
        (result) => ({ kind, index, ...result }),
      ),
    ),
  );
  // Let the actions' background work end before reading what stayed.
  await waitForNodes(client, [uuid], (node) => isSettled(node), 60_000);
  const node = (await expect(client, [200], 'GET', `/v1/nodes/${uuid}`)).body;
  const extra = (node.extra ?? {}) as Record<string, unknown>;
  const patchResults = results.filter((r) => r.kind === 'patch');
  const acknowledged = patchResults.filter((r) => r.reply.status >= 200 && r.reply.status < 300);
  const log = Array.isArray(extra.log) ? (extra.log as unknown[]) : [];
  const kept = (i: number) => (options.append ? log.includes(`v${i}`) : extra[`k${i}`] === `v${i}`);
  const lost = acknowledged.filter((r) => !kept(r.index)).map((r) => `v${r.index}`);
  return {
    sent: results.length,
    patchStatuses: countStatuses(patchResults),
    actionStatuses: countStatuses(results.filter((r) => r.kind === 'action')),
    acknowledged: acknowledged.length,
    lost,
    maxInFlight: maxInFlight(results),
  };
}

interface NodeState {
  readonly uuid: string;
  readonly provision_state: string;
  readonly reservation: string | null;
  readonly target_power_state: string | null;
}

/** No work pending on the node: not transitional, not reserved, no power change waited for. */
export function isSettled(node: NodeState): boolean {
  return (
    !TRANSITIONAL_STATES.includes(node.provision_state) &&
    node.reservation === null &&
    node.target_power_state === null
  );
}

const STATE_FIELDS = 'uuid,provision_state,reservation,target_power_state';

/** The nodes of a resource class (the scenario's own), with the fields the checks read. */
async function nodesOfClass(client: RaceClient, resourceClass: string): Promise<NodeState[]> {
  const reply = await expect(
    client,
    [200],
    'GET',
    `/v1/nodes?resource_class=${resourceClass}&fields=${STATE_FIELDS}&limit=1000`,
  );
  return reply.body.nodes as NodeState[];
}

async function waitForNodes(
  client: RaceClient,
  uuids: readonly string[],
  done: (node: NodeState) => boolean,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const uuid of uuids) {
    for (;;) {
      const reply = await client.call('GET', `/v1/nodes/${uuid}?fields=${STATE_FIELDS}`);
      if (reply.status === 200 && done(reply.body as NodeState)) break;
      if (Date.now() > deadline) {
        throw new Error(`node ${uuid} not as expected in time: ${JSON.stringify(reply.body)}`);
      }
      await sleep(100);
    }
  }
}

/** Sends `calls` with at most `width` in flight; a 5xx is tried again (SQLite's "locked"). */
async function inWaves(
  calls: readonly (() => Promise<RaceReply>)[],
  width: number,
  accepted: readonly number[],
): Promise<number> {
  let next = 0;
  let retried = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, calls.length) }, async () => {
      for (let i = next++; i < calls.length; i = next++) {
        for (let attempt = 1; ; attempt++) {
          const reply = await (calls[i] as () => Promise<RaceReply>)();
          if (accepted.includes(reply.status)) break;
          if (reply.status < 500 || attempt === 10) {
            throw new Error(`HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
          }
          retried++;
          await sleep(200);
        }
      }
    }),
  );
  return retried;
}

export interface KillOptions {
  readonly nodes: number;
  /** How long to wait for the nodes to settle after the new conductor's start. */
  readonly limitMs: number;
  /** Between two looks at the nodes. */
  readonly pollMs?: number;
  /** Requests in flight while the nodes are prepared. */
  readonly width?: number;
}

export interface KillResult {
  readonly nodes: number;
  /** Nodes in `deploying` when the conductor was killed. */
  readonly deployingAtKill: number;
  /** Nodes not settled when the scenario ended (settled or limitMs after the start). */
  readonly leftTransitional: number;
  /** From the new conductor's start to the last node settled; undefined if not within the limit. */
  readonly settleMs: number | undefined;
  /** The nodes' provision states at the end, counted. */
  readonly finalStates: Record<string, number>;
  /** How long the new conductor took to start (spawn to serving). */
  readonly startMs: number;
  /** 5xx answers tried again while the nodes were prepared. */
  readonly retried: number;
}

/**
 * `nodes` new nodes, managed, provided and deployed (the service's fake deploy must outlast
 * the preparation: `[fake] deploy_delay`), then conductor 0 SIGKILLed and started again, and
 * the nodes watched every pollMs until all have settled or limitMs has passed.
 */
export async function killDuringDeploys(
  client: RaceClient,
  control: ConductorControl,
  options: KillOptions,
): Promise<KillResult> {
  const width = options.width ?? 10;
  const resourceClass = `race-${Date.now().toString(36)}`;
  const uuids: string[] = [];
  let retried = await inWaves(
    Array.from({ length: options.nodes }, () => async () => {
      const reply = await client.call('POST', '/v1/nodes', {
        driver: 'fake-hardware',
        resource_class: resourceClass,
      });
      if (reply.status === 201) uuids.push(String(reply.body.uuid));
      return reply;
    }),
    width,
    [201],
  );
  const move = async (target: string, state: string) => {
    retried += await inWaves(
      uuids.map(
        (uuid) => () => client.call('PUT', `/v1/nodes/${uuid}/states/provision`, { target }),
      ),
      width,
      [202],
    );
    await waitForNodes(client, uuids, (n) => n.provision_state === state && isSettled(n), 300_000);
  };
  await move('manage', 'manageable');
  await move('provide', 'available');
  retried += await inWaves(
    uuids.map(
      (uuid) => () =>
        client.call('PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'active' }),
    ),
    width,
    [202],
  );
  const atKill = await nodesOfClass(client, resourceClass);
  const deployingAtKill = atKill.filter((n) => n.provision_state === 'deploying').length;
  await control.killConductor(0);
  const spawnedAt = performance.now();
  await control.restartConductor(0);
  const startMs = performance.now() - spawnedAt;
  let nodes = await nodesOfClass(client, resourceClass);
  let settleMs: number | undefined;
  for (;;) {
    const now = performance.now() - spawnedAt;
    if (nodes.every(isSettled)) {
      settleMs = now;
      break;
    }
    if (now > options.limitMs) break;
    await sleep(options.pollMs ?? 500);
    nodes = await nodesOfClass(client, resourceClass);
  }
  const finalStates: Record<string, number> = {};
  for (const node of nodes) {
    const key =
      node.reservation === null ? node.provision_state : `${node.provision_state} (reserved)`;
    finalStates[key] = (finalStates[key] ?? 0) + 1;
  }
  return {
    nodes: uuids.length,
    deployingAtKill,
    leftTransitional: nodes.filter((n) => !isSettled(n)).length,
    settleMs,
    finalStates,
    startMs,
    retried,
  };
}
