/**
 * The control plane a fault test runs: a bare metal config file (API and conductors share it,
 * with intervals short enough for a test), and the requests of the mixed load on both
 * services, each remembering what was acknowledged so the test can look for it afterwards.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LoadCounts, send } from './load.ts';

export interface BaremetalConfig {
  readonly dir: string;
  readonly host: string;
  readonly db: string;
  readonly transport?: 'http' | 'amqp';
  readonly transportUrl?: string;
  /** The RPC exchange, one per test so tests sharing a broker never meet. */
  readonly exchange?: string;
  readonly heartbeatTimeout?: number;
  /** `[conductor] check_provision_state_interval`, 1 s unless given. */
  readonly checkProvisionStateInterval?: number;
  /**
   * `[DEFAULT] rpc_shared_secret`: a noauth conductor listens for RPC beyond loopback only
   * with one (the API must carry the same).
   */
  readonly rpcSharedSecret?: string;
  readonly extra?: readonly string[];
}

/** Writes `<dir>/<host>.conf` and returns its path. */
export function writeBaremetalConfig(config: BaremetalConfig): string {
  const path = join(config.dir, `${config.host}.conf`);
  writeFileSync(
    path,
    [
      '[DEFAULT]',
      `host = ${config.host}`,
      `rpc_transport = ${config.transport ?? 'http'}`,
      ...(config.transportUrl ? [`transport_url = ${config.transportUrl}`] : []),
      ...(config.exchange ? [`rpc_exchange = ${config.exchange}`] : []),
      ...(config.rpcSharedSecret ? [`rpc_shared_secret = ${config.rpcSharedSecret}`] : []),
      'hash_ring_reset_interval = 1',
      'graceful_shutdown_timeout = 5',
      '[database]',
      `connection = ${config.db}`,
      '[healthcheck]',
      'drain_delay = 0',
      '[conductor]',
      'heartbeat_interval = 1',
      `heartbeat_timeout = ${config.heartbeatTimeout ?? 4}`,
      `check_provision_state_interval = ${config.checkProvisionStateInterval ?? 1}`,
      'sync_local_state_interval = 1',
      'automated_clean = false',
      ...(config.extra ?? []),
      '',
    ].join('\n'),
  );
  return path;
}

const PLACEMENT_HEADERS = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39' };
export const IRONIC_HEADERS = { 'x-openstack-ironic-api-version': '1.80' };

/** Placement: resource providers created and read back; the acknowledged ones are kept. */
export class PlacementLoad {
  readonly acknowledged: string[] = [];

  readonly url: string;
  readonly counts: LoadCounts;

  constructor(url: string, counts: LoadCounts) {
    this.url = url;
    this.counts = counts;
  }

  async step(iteration: number): Promise<void> {
    if (iteration % 2 === 0 || this.acknowledged.length === 0) {
      const uuid = randomUUID();
      const answer = await send(this.counts, {
        label: 'placement POST /resource_providers',
        method: 'POST',
        url: `${this.url}/resource_providers`,
        headers: PLACEMENT_HEADERS,
        body: { name: `fault-${uuid}`, uuid },
      });
      if (answer && answer.status === 200) this.acknowledged.push(uuid);
    } else {
      const uuid = this.acknowledged[iteration % this.acknowledged.length];
      await send(this.counts, {
        label: 'placement GET /resource_providers/{uuid}',
        method: 'GET',
        url: `${this.url}/resource_providers/${uuid}`,
        headers: PLACEMENT_HEADERS,
      });
    }
  }

  /** How many acknowledged providers are missing (each one is looked up). */
  async missing(): Promise<string[]> {
    const missing: string[] = [];
    for (const uuid of this.acknowledged) {
      const answer = await fetch(`${this.url}/resource_providers/${uuid}`, {
        headers: PLACEMENT_HEADERS,
      });
      if (answer.status !== 200) missing.push(uuid);
    }
    return missing;
  }
}

/** Bare metal: nodes created (through a conductor), read, and moved to manageable. */
export class BaremetalLoad {
  readonly acknowledged: string[] = [];

  readonly url: string;
  readonly counts: LoadCounts;

  constructor(url: string, counts: LoadCounts) {
    this.url = url;
    this.counts = counts;
  }

  async step(iteration: number): Promise<void> {
    const phase = iteration % 3;
    if (phase === 0 || this.acknowledged.length === 0) {
      const answer = await send(this.counts, {
        label: 'baremetal POST /v1/nodes',
        method: 'POST',
        url: `${this.url}/v1/nodes`,
        headers: IRONIC_HEADERS,
        body: { driver: 'fake-hardware' },
      });
      if (answer && answer.status === 201) {
        this.acknowledged.push(String((JSON.parse(answer.body) as { uuid: string }).uuid));
      }
    } else if (phase === 1) {
      const uuid = this.acknowledged[iteration % this.acknowledged.length];
      await send(this.counts, {
        label: 'baremetal GET /v1/nodes/{uuid}',
        method: 'GET',
        url: `${this.url}/v1/nodes/${uuid}`,
        headers: IRONIC_HEADERS,
      });
    } else {
      const uuid = this.acknowledged[this.acknowledged.length - 1];
      await send(this.counts, {
        label: 'baremetal PUT /v1/nodes/{uuid}/states/provision',
        method: 'PUT',
        url: `${this.url}/v1/nodes/${uuid}/states/provision`,
        headers: IRONIC_HEADERS,
        body: { target: 'manage' },
      });
    }
  }

  /** The acknowledged nodes, each read back: missing ones, and those still reserved. */
  async check(): Promise<{ missing: string[]; reserved: string[]; rows: number }> {
    const missing: string[] = [];
    const reserved: string[] = [];
    for (const uuid of this.acknowledged) {
      const answer = await fetch(`${this.url}/v1/nodes/${uuid}`, { headers: IRONIC_HEADERS });
      if (answer.status !== 200) {
        missing.push(uuid);
        continue;
      }
      const node = (await answer.json()) as { reservation: string | null };
      if (node.reservation !== null) reserved.push(`${uuid} (${node.reservation})`);
    }
    return { missing, reserved, rows: this.acknowledged.length };
  }
}

/** Whether a 5xx body is in Placement's format, with a request id, and shows no stack. */
export function isPlacementError(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { errors?: { status?: number; request_id?: string }[] };
    const first = parsed.errors?.[0];
    return (
      typeof first?.status === 'number' &&
      /^req-/.test(first.request_id ?? '') &&
      !/\n\s+at /.test(body)
    );
  } catch {
    return false;
  }
}

/** Whether a 5xx body is in Ironic's format (error_message holding a fault) and shows no stack. */
export function isIronicError(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { error_message?: string };
    const fault = JSON.parse(parsed.error_message ?? '') as { faultstring?: string };
    return typeof fault.faultstring === 'string' && !/\n\s+at /.test(body);
  } catch {
    return false;
  }
}
