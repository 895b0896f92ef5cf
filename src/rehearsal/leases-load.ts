/**
 * The load a rehearsal of the example leases service keeps on its API through the balancer:
 * lists, shows, creates and releases of leases at 1.0, which both releases serve, each answer
 * compared with what was acknowledged. Once an API of the new release serves 1.1 (step 3.3
 * on), what only release 2 can do is asked of it directly: a lease created in a pool, a lease
 * moved to another pool, a lease read back with its pool. Each worker of the load owns its
 * leases, so the load never races itself; nothing is retried.
 */
import { randomInt } from 'node:crypto';
import { LeaseLedger } from './leases-data-check.ts';
import { higher } from './load-generator.ts';
import { drawWeighted, mixTotal, PacedWorkers } from './paced-workers.ts';
import { type LoadAnswer, sendRecorded } from './recorded-request.ts';
import type { LoadSettings } from './rehearsed-service.ts';

/** The leases API's version header. */
export const LEASES_VERSION_HEADER = 'X-Leases-API-Version';
/** What only release 2 serves: a lease's pool. */
export const POOL_MICROVERSION = '1.1';

/** The mix, in weights; the last three only once an API serves 1.1 (a read before). */
export const LEASES_MIX = {
  read: 35,
  create: 25,
  release: 10,
  latest: 5,
  createInPool: 8,
  move: 9,
  readPool: 8,
} as const;

const MIX_TOTAL = mixTotal(LEASES_MIX);

export class LeasesLoad extends PacedWorkers {
  readonly ledger = new LeaseLedger();
  readonly #settings: LoadSettings;
  #latest: string | undefined;
  #names = 0;

  constructor(settings: LoadSettings) {
    super(settings);
    this.#settings = settings;
  }

  protected async work(worker: number): Promise<void> {
    const own: string[] = [];
    while (!this.stopping) {
      let operation =
        own.length === 0 ? 'create' : drawWeighted(LEASES_MIX, randomInt(MIX_TOTAL), 'read');
      const newApi = this.newReleaseApi();
      if (newApi === undefined && ['createInPool', 'move', 'readPool'].includes(operation)) {
        operation = 'read';
      }
      const uuid = own[randomInt(Math.max(1, own.length))] as string;
      try {
        if (operation === 'create') await this.#create(worker, own);
        else if (operation === 'createInPool') await this.#create(worker, own, newApi);
        else if (operation === 'release') await this.#release(uuid, own);
        else if (operation === 'latest') await this.#readLatest();
        else if (operation === 'move') await this.#move(uuid, newApi as string);
        else if (operation === 'readPool') await this.#read(uuid, newApi);
        else await this.#read(uuid);
      } catch (error) {
        this.#settings.log.failOutcome(`worker ${worker}: ${String(error)}`);
      }
    }
  }

  async #request(
    kind: string,
    method: string,
    path: string,
    expected: number,
    options: { body?: unknown; baseUrl?: string; microversion?: string } = {},
  ): Promise<LoadAnswer | undefined> {
    await this.pacer.slot();
    return sendRecorded(this.#settings.log, {
      kind,
      method,
      url: `${options.baseUrl ?? this.#settings.baseUrl}${path}`,
      expected,
      headers: {
        [LEASES_VERSION_HEADER]: options.microversion ?? this.#settings.microversion,
      },
      ...(options.body === undefined ? {} : { body: options.body }),
    });
  }

  /** Through the balancer at the load's version, or in a pool on a new-release API at 1.1. */
  async #create(worker: number, own: string[], newApi?: string): Promise<void> {
    const n = ++this.#names;
    const resource = `${this.#settings.runId}-w${worker}-r${n}`;
    const holder = `holder-${n % 13}`;
    const pool = newApi === undefined ? undefined : `pool-${n % 5}`;
    const microversion = newApi === undefined ? this.#settings.microversion : POOL_MICROVERSION;
    const answer = await this.#request(
      newApi === undefined ? 'create' : 'create-in-pool',
      'POST',
      '/v1/leases',
      201,
      {
        body: { resource, holder, ...(pool === undefined ? {} : { pool }) },
        ...(newApi === undefined ? {} : { baseUrl: newApi, microversion }),
      },
    );
    if (answer === undefined) return;
    const uuid = String(answer.body.uuid);
    this.ledger.created(uuid, resource, holder, pool ?? 'default', microversion);
    own.push(uuid);
  }

  async #release(uuid: string, own: string[]): Promise<void> {
    const answer = await this.#request('release', 'DELETE', `/v1/leases/${uuid}`, 204);
    // Forgotten either way: a lease whose release failed is not asked for again.
    own.splice(own.indexOf(uuid), 1);
    if (answer !== undefined) this.ledger.released(uuid);
  }

  async #move(uuid: string, newApi: string): Promise<void> {
    const pool = `pool-${randomInt(5)}`;
    const answer = await this.#request('move', 'PATCH', `/v1/leases/${uuid}`, 200, {
      body: { pool },
      baseUrl: newApi,
      microversion: POOL_MICROVERSION,
    });
    if (answer === undefined) return;
    if (answer.body.pool !== pool) {
      this.#settings.log.failOutcome(`PATCH of ${uuid} answered pool ${String(answer.body.pool)}`);
    }
    this.ledger.moved(uuid, pool, POOL_MICROVERSION);
  }

  /** A show compared with the ledger (with its pool on a new-release API), or a list. */
  async #read(uuid: string, newApi?: string): Promise<void> {
    if (newApi === undefined && randomInt(3) === 0) {
      await this.#request('list', 'GET', '/v1/leases', 200);
      return;
    }
    const answer = await this.#request(
      newApi === undefined ? 'show' : 'show-pool',
      'GET',
      `/v1/leases/${uuid}`,
      200,
      newApi === undefined ? {} : { baseUrl: newApi, microversion: POOL_MICROVERSION },
    );
    const expected = this.ledger.leases.get(uuid);
    if (answer === undefined || expected === undefined) return;
    const fields = newApi === undefined ? ['resource', 'holder'] : ['resource', 'holder', 'pool'];
    for (const field of fields as ('resource' | 'holder' | 'pool')[]) {
      if (answer.body[field] !== expected[field].value) {
        this.#settings.log.failOutcome(
          `lease ${uuid} shows ${field} ${JSON.stringify(answer.body[field])}, the acknowledged one is ${JSON.stringify(expected[field].value)}`,
        );
      }
    }
  }

  /** `latest` through the balancer: the version served never goes down going forward. */
  async #readLatest(): Promise<void> {
    const answer = await this.#request('latest', 'GET', '/v1', 200, { microversion: 'latest' });
    const version = answer?.headers.get(LEASES_VERSION_HEADER);
    if (version === undefined || version === null) return;
    const seen = this.#latest;
    if (seen !== undefined && higher(seen, version) && !this.#settings.latestMayGoDown) {
      this.#settings.log.failOutcome(`latest went down: ${version} now, ${seen} before`);
    }
    if (seen === undefined || higher(version, seen)) this.#latest = version;
  }
}
