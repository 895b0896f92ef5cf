/**
 * Holding Baton's API to the real Ironic: the same requests go to both, and each answer is
 * brought to a form that does not depend on the run (addresses, UUIDs in order of first
 * appearance, timestamps, request ids) before status, version headers and body are compared.
 * An error body's `error_message` is parsed too, so the inner fault or WebOb error compares as
 * a document.
 */
import { STATE_GROUPS } from '../../../../src/baremetal/common/provision-states.ts';
import type { BatonApi } from './baton-api.ts';

export interface Exchange {
  readonly method?: string;
  readonly path: string;
  /** X-OpenStack-Ironic-API-Version; none sent when undefined. */
  readonly version?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON (with its content type) unless `rawBody` is given. */
  readonly body?: unknown;
  readonly rawBody?: string;
  /**
   * Top-level body keys where Baton differs from the real service on purpose (each listed in
   * docs/baremetal.md, "API tier"): left out on both sides before comparing.
   */
  readonly unlike?: readonly string[];
  /**
   * A node (`{uuid-N}`) whose state changes this request started: its states are polled until
   * no target is left (the work done) before the next step.
   */
  readonly settle?: string;
  /**
   * An allocation (`{uuid-N}` or its name) this request started: polled until it is no longer
   * `allocating` (the conductor's background work done) before the next step.
   */
  readonly settleAllocation?: string;
  /**
   * The real service answers this request with a 500 (a bug of its own, named here); Baton
   * must answer it without one (docs/baremetal.md lists these).
   */
  readonly realBug?: string;
}

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** The body as sent (for checks on its exact text). */
  readonly text: string;
}

/** Where to send requests: Baton through inject, or a real Ironic through HTTP. */
export type Target =
  | { readonly kind: 'baton'; readonly api: BatonApi; readonly base: string }
  | { readonly kind: 'real'; readonly base: string };

const COMPARED_HEADERS = [
  'x-openstack-ironic-api-version',
  'x-openstack-ironic-api-minimum-version',
  'x-openstack-ironic-api-maximum-version',
  'allow',
  'location',
];

function requestHeaders(exchange: Exchange): Record<string, string> {
  const headers: Record<string, string> = { ...exchange.headers };
  if (exchange.version !== undefined) headers['X-OpenStack-Ironic-API-Version'] = exchange.version;
  if (exchange.body !== undefined && exchange.rawBody === undefined) {
    headers['Content-Type'] ??= 'application/json';
  }
  return headers;
}

function bodyText(exchange: Exchange): string | undefined {
  if (exchange.rawBody !== undefined) return exchange.rawBody;
  return exchange.body === undefined ? undefined : JSON.stringify(exchange.body);
}

function parsed(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function send(target: Target, exchange: Exchange): Promise<Answer> {
  const method = exchange.method ?? 'GET';
  const headers = requestHeaders(exchange);
  const payload = bodyText(exchange);
  if (target.kind === 'baton') {
    const response = await target.api.request({
      method: method as 'GET',
      url: exchange.path,
      headers: { host: new URL(target.base).host, ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
    const picked: Record<string, string> = {};
    for (const name of COMPARED_HEADERS) {
      const value = response.headers[name];
      if (value !== undefined) picked[name] = String(value);
    }
    return {
      status: response.statusCode,
      headers: picked,
      body: parsed(response.body),
      text: response.body,
    };
  }
  const response = await fetch(`${target.base}${exchange.path}`, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
  const text = await response.text();
  const picked: Record<string, string> = {};
  for (const name of COMPARED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) picked[name] = value;
  }
  return { status: response.status, headers: picked, body: parsed(text), text };
}

/** Lists the real service builds from Python sets (docs/baremetal.md, "The fake-hardware…"). */
const SET_ORDERED = /^(hosts|enabled_\w+_interfaces)$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:\+00:00|Z)?/g;

/** Replaces what differs between runs; UUIDs get names by order of first appearance. */
export class Normalizer {
  readonly #uuids = new Map<string, string>();
  /** Agent tokens (random on each side), named by order of appearance as UUIDs are. */
  readonly #tokens = new Map<string, string>();
  readonly #base: string;
  readonly #hosts: ReadonlyMap<string, string>;

  constructor(base: string, hosts: ReadonlyMap<string, string> = new Map()) {
    this.#base = base;
    this.#hosts = hosts;
  }

  text(value: string): string {
    let out = value.replaceAll(this.#base, '{base}');
    out = out.replace(UUID, (uuid) => {
      let name = this.#uuids.get(uuid);
      if (name === undefined) {
        name = `{uuid-${this.#uuids.size + 1}}`;
        this.#uuids.set(uuid, name);
      }
      return name;
    });
    out = out.replace(TIMESTAMP, '{time}');
    for (const [host, name] of this.#hosts) out = out.replaceAll(host, name);
    return out;
  }

  value(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        // The real service lists these in Python set order, which changes between runs.
        if (SET_ORDERED.test(key) && Array.isArray(item)) {
          out[key] = this.value([...item].sort());
          continue;
        }
        if (key === 'agent_token' && typeof item === 'string' && item !== '******') {
          out[key] = this.#token(item);
          continue;
        }
        // The inner error document is compared as a document.
        if (key === 'error_message' && typeof item === 'string') {
          out[key] = this.value(parsed(item));
        } else out[key] = this.value(item);
      }
      return out;
    }
    return value;
  }

  #token(token: string): string {
    let name = this.#tokens.get(token);
    if (name === undefined) {
      name = `{token-${this.#tokens.size + 1}}`;
      this.#tokens.set(token, name);
    }
    return name;
  }

  /** A request written with `{uuid-N}` and `{token-N}` names, as this side must send it. */
  resolve(exchange: Exchange): Exchange {
    const names = new Map([...this.#uuids, ...this.#tokens].map(([value, name]) => [name, value]));
    const fill = (text: string) =>
      text.replace(/\{(?:uuid|token)-\d+\}/g, (name) => names.get(name) ?? name);
    const body =
      exchange.body === undefined ? undefined : JSON.parse(fill(JSON.stringify(exchange.body)));
    return {
      ...exchange,
      path: fill(exchange.path),
      ...(body === undefined ? {} : { body }),
      ...(exchange.rawBody === undefined ? {} : { rawBody: fill(exchange.rawBody) }),
    };
  }

  answer(answer: Answer): { status: number; headers: Record<string, string>; body: unknown } {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) headers[name] = this.text(value);
    return { status: answer.status, headers, body: this.value(answer.body) };
  }
}

/** Where two JSON values differ, one line per difference (`path: baton … real …`). */
export function differences(
  ours: unknown,
  theirs: unknown,
  path = '$',
  out: string[] = [],
): string[] {
  if (out.length >= 20) return out;
  const isObject = (v: unknown) => v !== null && typeof v === 'object';
  if (isObject(ours) && isObject(theirs) && Array.isArray(ours) === Array.isArray(theirs)) {
    const a = ours as Record<string, unknown>;
    const b = theirs as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const at = `${path}.${key}`;
      if (!Object.hasOwn(a, key))
        out.push(`${at}: missing in Baton (real ${JSON.stringify(b[key])})`);
      else if (!Object.hasOwn(b, key)) out.push(`${at}: only in Baton (${JSON.stringify(a[key])})`);
      else differences(a[key], b[key], at, out);
    }
    if (Array.isArray(ours) && Object.keys(a).join() !== Object.keys(b).join()) {
      out.push(`${path}: length ${Object.keys(a).length} in Baton, ${Object.keys(b).length} real`);
    }
    return out;
  }
  if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
    out.push(`${path}: Baton ${JSON.stringify(ours)}, real ${JSON.stringify(theirs)}`);
  }
  return out;
}

/**
 * Polls a node until its work is done: not in a state the conductor moves on by itself, no
 * power change pending, no reservation (a failed state keeps its target: it is done too).
 */
export async function settle(target: Target, node: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const path = `/v1/nodes/${node}?fields=provision_state,target_power_state,reservation`;
  for (;;) {
    const answer = await send(target, { path, version: '1.80' });
    const states = answer.body as Record<string, unknown>;
    if (answer.status !== 200) throw new Error(`${node}: ${answer.status} ${answer.text}`);
    const moving = (STATE_GROUPS.unstable as readonly unknown[]).includes(states.provision_state);
    if (!moving && states.target_power_state === null && states.reservation === null) return;
    if (Date.now() > deadline) throw new Error(`node ${node} did not settle: ${answer.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls an allocation until the conductor has processed it (no longer `allocating`). */
export async function settleAllocation(
  target: Target,
  allocation: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const path = `/v1/allocations/${allocation}?fields=state`;
  for (;;) {
    const answer = await send(target, { path, version: '1.52' });
    if (answer.status !== 200) throw new Error(`${allocation}: ${answer.status} ${answer.text}`);
    if ((answer.body as { state?: unknown }).state !== 'allocating') return;
    if (Date.now() > deadline) throw new Error(`allocation ${allocation} stayed allocating`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
