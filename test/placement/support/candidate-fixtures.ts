/**
 * Provider trees for allocation-candidate tests, built through the API. Each scenario names
 * its own resource classes and traits (CUSTOM_<TAG>_...), so scenarios sharing one database
 * never see each other's inventory.
 */
import { randomUUID } from 'node:crypto';
import type { ApiResponse, PlacementContext } from './placement-api.ts';

export interface ProviderSpec {
  readonly parent?: string;
  /** Class → total, or a full inventory record. */
  readonly inventory?: Readonly<Record<string, number | Readonly<Record<string, number>>>>;
  readonly traits?: readonly string[];
  readonly aggregates?: readonly string[];
}

function expectOk(response: ApiResponse, what: string): ApiResponse {
  if (response.status >= 300) {
    throw new Error(`${what}: ${response.status} ${response.text}`);
  }
  return response;
}

let counter = 0;

export class Scenario {
  readonly tag: string;
  readonly #ctx: PlacementContext;
  /** Provider name → uuid (and back). */
  readonly uuids = new Map<string, string>();
  readonly names = new Map<string, string>();

  constructor(
    ctx: PlacementContext,
    tag = `S${++counter}${randomUUID().slice(0, 4).toUpperCase()}`,
  ) {
    this.#ctx = ctx;
    this.tag = tag.replace(/-/g, '_');
  }

  /** The scenario's own class (or trait) name for a short one: CPU → CUSTOM_<TAG>_CPU. */
  n(short: string): string {
    return short.startsWith('CUSTOM_') || (/^[A-Z_]+$/.test(short) && isStandard(short))
      ? short
      : `CUSTOM_${this.tag}_${short}`;
  }

  async classes(...shorts: string[]): Promise<void> {
    for (const short of shorts) {
      expectOk(
        await this.#ctx
          .api()
          .put(`/resource_classes/${this.n(short)}`, undefined, { version: '1.7' }),
        `class ${short}`,
      );
    }
  }

  async traits(...shorts: string[]): Promise<void> {
    for (const short of shorts) {
      expectOk(
        await this.#ctx.api().put(`/traits/${this.n(short)}`, undefined, { version: '1.6' }),
        `trait ${short}`,
      );
    }
  }

  async #generation(uuid: string): Promise<number> {
    const response = expectOk(
      await this.#ctx.api().get(`/resource_providers/${uuid}`, { version: '1.14' }),
      'show',
    );
    return response.body.generation as number;
  }

  async provider(name: string, spec: ProviderSpec = {}): Promise<string> {
    const api = this.#ctx.api();
    const uuid = randomUUID();
    const body: Record<string, unknown> = { name: `${this.tag}-${name}`, uuid };
    if (spec.parent !== undefined) body.parent_provider_uuid = this.uuid(spec.parent);
    expectOk(await api.post('/resource_providers', body, { version: '1.20' }), `provider ${name}`);
    this.uuids.set(name, uuid);
    this.names.set(uuid, name);
    if (spec.inventory !== undefined) {
      const inventories: Record<string, unknown> = {};
      for (const [short, value] of Object.entries(spec.inventory)) {
        inventories[this.n(short)] = typeof value === 'number' ? { total: value } : value;
      }
      expectOk(
        await api.put(`/resource_providers/${uuid}/inventories`, {
          resource_provider_generation: await this.#generation(uuid),
          inventories,
        }),
        `inventory ${name}`,
      );
    }
    if (spec.traits !== undefined) {
      expectOk(
        await api.put(
          `/resource_providers/${uuid}/traits`,
          {
            resource_provider_generation: await this.#generation(uuid),
            traits: spec.traits.map((t) => this.n(t)),
          },
          { version: '1.6' },
        ),
        `traits ${name}`,
      );
    }
    if (spec.aggregates !== undefined) {
      expectOk(
        await api.put(
          `/resource_providers/${uuid}/aggregates`,
          {
            resource_provider_generation: await this.#generation(uuid),
            aggregates: spec.aggregates,
          },
          { version: '1.19' },
        ),
        `aggregates ${name}`,
      );
    }
    return uuid;
  }

  uuid(name: string): string {
    const uuid = this.uuids.get(name);
    if (uuid === undefined) throw new Error(`no provider ${name}`);
    return uuid;
  }

  /** Allocates for a new consumer: provider name → short class → amount. */
  async allocate(
    allocations: Readonly<Record<string, Readonly<Record<string, number>>>>,
  ): Promise<string> {
    const consumer = randomUUID();
    const body = {
      allocations: Object.fromEntries(
        Object.entries(allocations).map(([name, resources]) => [
          this.uuid(name),
          {
            resources: Object.fromEntries(
              Object.entries(resources).map(([short, amount]) => [this.n(short), amount]),
            ),
          },
        ]),
      ),
      project_id: randomUUID(),
      user_id: randomUUID(),
      consumer_generation: null,
    };
    expectOk(
      await this.#ctx.api().put(`/allocations/${consumer}`, body, { version: '1.28' }),
      'allocate',
    );
    return consumer;
  }

  /** Replaces short names in a query (`{CPU}` → the scenario's class, `{@cn1}` → uuid). */
  q(template: string): string {
    return template
      .replace(/\{@([^}]+)\}/g, (_m, name: string) => this.uuid(name))
      .replace(/\{([A-Za-z0-9_]+)\}/g, (_m, short: string) => this.n(short));
  }

  async candidates(template: string, version = '1.39'): Promise<ApiResponse> {
    return this.#ctx.api().get(`/allocation_candidates?${this.q(template)}`, { version });
  }

  /**
   * Allocation requests (dict form) as sorted strings: `cn1:CPU=1 + ss:DISK=10`, with
   * `| suffix=cn1,numa0` mappings appended when present.
   */
  requests(body: { allocation_requests: unknown[] }): string[] {
    return body.allocation_requests.map((raw) => this.describe(raw)).sort();
  }

  describe(raw: unknown): string {
    const request = raw as {
      allocations: Record<string, { resources: Record<string, number> }>;
      mappings?: Record<string, string[]>;
    };
    const parts: string[] = [];
    for (const [uuid, { resources }] of Object.entries(request.allocations)) {
      const name = this.names.get(uuid) ?? uuid;
      for (const [cls, amount] of Object.entries(resources)) {
        parts.push(`${name}:${this.short(cls)}=${amount}`);
      }
    }
    let text = parts.sort().join(' + ');
    if (request.mappings !== undefined) {
      const maps = Object.entries(request.mappings)
        .map(
          ([suffix, uuids]) =>
            `${suffix}=${uuids
              .map((u) => this.names.get(u) ?? u)
              .sort()
              .join(',')}`,
        )
        .sort();
      text += ` | ${maps.join(' ')}`;
    }
    return text;
  }

  short(name: string): string {
    const prefix = `CUSTOM_${this.tag}_`;
    return name.startsWith(prefix) ? name.slice(prefix.length) : name;
  }

  /** Provider summary names, sorted. */
  summaryNames(body: { provider_summaries: Record<string, unknown> }): string[] {
    return Object.keys(body.provider_summaries)
      .map((uuid) => this.names.get(uuid) ?? uuid)
      .sort();
  }
}

const STANDARD = new Set([
  'VCPU',
  'MEMORY_MB',
  'DISK_GB',
  'SRIOV_NET_VF',
  'MISC_SHARES_VIA_AGGREGATE',
  'HW_NUMA_ROOT',
  'COMPUTE_VOLUME_MULTI_ATTACH',
]);

function isStandard(name: string): boolean {
  return STANDARD.has(name);
}
