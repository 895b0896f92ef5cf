/**
 * Consumer generations (the consumer-generation spec) in the three states a consumer can be in when allocations
 * are written: no allocations and no consumer record; allocations but no consumer record
 * (written before 1.8, the online migration not yet run: made here by deleting the record);
 * allocations and a record. Each write form is tried in each state.
 */
import type { Pair, Scenario } from '../pair.ts';
import { c, inventories, p, provider } from './b-support.ts';

const OWNER = { project_id: 'project-s', user_id: 'user-s' };

type Write = {
  readonly title: string;
  readonly run: (pair: Pair, consumer: string, title: string) => Promise<unknown>;
};

const resources = { VCPU: 1 };
const put =
  (version: string, extra: Record<string, unknown> = {}, legacy = false): Write['run'] =>
  (pair, consumer, title) =>
    pair.req(title, {
      method: 'PUT',
      path: `/allocations/${consumer}`,
      version,
      body: legacy
        ? { allocations: [{ resource_provider: { uuid: p(1) }, resources }], ...extra }
        : { allocations: { [p(1)]: { resources } }, ...OWNER, ...extra },
    });
const post =
  (version: string, extra: Record<string, unknown> = {}): Write['run'] =>
  (pair, consumer, title) =>
    pair.req(title, {
      method: 'POST',
      path: '/allocations',
      version,
      body: { [consumer]: { allocations: { [p(1)]: { resources } }, ...OWNER, ...extra } },
    });

const WRITES: readonly Write[] = [
  { title: 'PUT 1.7', run: put('1.7', {}, true) },
  { title: 'PUT 1.8 other owner', run: put('1.8', { project_id: 'p2', user_id: 'u2' }, true) },
  { title: 'PUT 1.27', run: put('1.27') },
  { title: 'PUT 1.28 null', run: put('1.28', { consumer_generation: null }) },
  { title: 'PUT 1.28 generation 0', run: put('1.28', { consumer_generation: 0 }) },
  { title: 'PUT 1.28 generation 1', run: put('1.28', { consumer_generation: 1 }) },
  {
    title: 'PUT 1.28 empty, null',
    run: (pair, consumer, title) =>
      pair.req(title, {
        method: 'PUT',
        path: `/allocations/${consumer}`,
        version: '1.28',
        body: { allocations: {}, ...OWNER, consumer_generation: null },
      }),
  },
  {
    title: 'PUT 1.28 empty, generation 1',
    run: (pair, consumer, title) =>
      pair.req(title, {
        method: 'PUT',
        path: `/allocations/${consumer}`,
        version: '1.28',
        body: { allocations: {}, ...OWNER, consumer_generation: 1 },
      }),
  },
  { title: 'POST 1.13', run: post('1.13') },
  { title: 'POST 1.28 null', run: post('1.28', { consumer_generation: null }) },
  { title: 'POST 1.28 generation 1', run: post('1.28', { consumer_generation: 1 }) },
  {
    title: 'PUT 1.38 null typed',
    run: put('1.38', { consumer_generation: null, consumer_type: 'INSTANCE' }),
  },
  {
    title: 'DELETE',
    run: (pair, consumer, title) =>
      pair.req(title, { method: 'DELETE', path: `/allocations/${consumer}`, version: '1.28' }),
  },
];

async function read(pair: Pair, consumer: string, when: string): Promise<void> {
  await pair.req(`${when}: consumer @1.28`, {
    method: 'GET',
    path: `/allocations/${consumer}`,
    version: '1.38',
  });
}

export const bConsumerStates: Scenario = {
  name: 'b-consumer-states',
  async run(pair) {
    await provider(pair, p(1), 'compute-1');
    await inventories(pair, p(1), { VCPU: { total: 1000 } });
    let n = 100;
    for (const state of ['no record, no allocations', 'allocations, no record', 'both']) {
      for (const write of WRITES) {
        const consumer = c(n++);
        const title = `${state} / ${write.title}`;
        if (state !== 'no record, no allocations') {
          await put('1.12', { project_id: 'p0', user_id: 'u0' })(
            pair,
            consumer,
            `${title}: set-up`,
          );
        }
        if (state === 'allocations, no record') {
          await pair.sql(`delete from consumers where uuid = '${consumer}'`);
          await read(pair, consumer, `${title}: orphaned`);
          await pair.req(`${title}: provider view`, {
            method: 'GET',
            path: `/resource_providers/${p(1)}/allocations`,
            version: '1.28',
          });
          await pair.req(`${title}: provider usages`, {
            method: 'GET',
            path: `/resource_providers/${p(1)}/usages`,
            version: '1.28',
          });
        }
        await write.run(pair, consumer, title);
        await read(pair, consumer, `${title}: after`);
      }
    }
    await pair.req('usages at the end', {
      method: 'GET',
      path: `/resource_providers/${p(1)}/usages`,
      version: '1.28',
    });
    await pair.req('provider allocations at the end', {
      method: 'GET',
      path: `/resource_providers/${p(1)}/allocations`,
      version: '1.28',
    });
  },
};
