/**
 * Numbers written as the real service's json.dumps writes them (measured on Placement 8.0.0
 * on the three backends, docs/placement.md): allocation_ratio read back from its float column
 * is a float (`4.0`, `1e+20`, `1e-05`); a write echoes each value as the request typed it
 * (`4` stays `4`, `8.0` stays `8.0`, a 30-digit int keeps its digits); a capacity past 2**53
 * is `int()` of a float, all its digits. Asserted on the bytes, where 4 and 4.0 differ.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Scenario } from '../support/candidate-fixtures.ts';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

forEachPlacementBackend('inventory numbers as Python writes them', (ctx) => {
  let provider: string;
  let generation = 0;
  const inventories = () => `/resource_providers/${provider}/inventories`;

  /** The bytes of `"name":<number>` for every occurrence of the field in an answer. */
  const written = (text: string, field: string) =>
    [...text.matchAll(new RegExp(`"${field}":([^,}]+)`, 'g'))].map((m) => m[1]);

  /** Each class's written allocation_ratio and total in a list answer. */
  const byClass = (text: string) =>
    Object.fromEntries(
      [...text.matchAll(/"([A-Z_]+)":\{"total":([^,]+),[^}]*"allocation_ratio":([^,}]+)/g)].map(
        (m) => [m[1], `${m[2]} ${m[3]}`],
      ),
    );

  const send = async (method: 'POST' | 'PUT', url: string, body: string, status: number) => {
    const response = await ctx.api().request(method, url, body, { version: '1.39' });
    assert.equal(response.status, status, response.text);
    if (response.body.resource_provider_generation !== undefined) {
      generation = response.body.resource_provider_generation;
    }
    return response.text;
  };
  const read = async (url: string) => {
    const response = await ctx.api().get(url, { version: '1.39' });
    assert.equal(response.status, 200, response.text);
    return response.text;
  };

  before(async () => {
    provider = uuid();
    const created = await ctx
      .api()
      .post('/resource_providers', { name: `numbers-${provider}`, uuid: provider });
    assert.equal(created.status, 201);
  });

  describe('a write echoes the numbers as sent', () => {
    it('an int ratio stays an int, the default ratio is a float', async () => {
      const text = await send(
        'POST',
        inventories(),
        '{"resource_class": "VCPU", "total": 8, "allocation_ratio": 4}',
        201,
      );
      assert.deepEqual(written(text, 'allocation_ratio'), ['4']);
      assert.deepEqual(written(text, 'total'), ['8']);
      const other = await send(
        'POST',
        inventories(),
        '{"resource_class": "DISK_GB", "total": 100}',
        201,
      );
      assert.deepEqual(written(other, 'allocation_ratio'), ['1.0']);
    });

    it('a float stays a float, in any field', async () => {
      const text = await send(
        'PUT',
        `${inventories()}/VCPU`,
        `{"resource_provider_generation": ${generation}, "total": 8.0, "allocation_ratio": 4.0}`,
        200,
      );
      assert.deepEqual(written(text, 'total'), ['8.0']);
      assert.deepEqual(written(text, 'allocation_ratio'), ['4.0']);
      assert.deepEqual(written(text, 'reserved'), ['0']);
    });

    it('each record of a whole set as its own', async () => {
      const text = await send(
        'PUT',
        inventories(),
        `{"resource_provider_generation": ${generation}, "inventories": {
          "VCPU": {"total": 8, "allocation_ratio": 2},
          "DISK_GB": {"total": 100, "allocation_ratio": 1E2},
          "MEMORY_MB": {"total": 1024},
          "PCI_DEVICE": {"total": 8, "allocation_ratio": 100000000000000000000000000000},
          "SRIOV_NET_VF": {"total": 8, "allocation_ratio": 0.00001}}}`,
        200,
      );
      assert.deepEqual(byClass(text), {
        VCPU: '8 2',
        DISK_GB: '100 100.0',
        MEMORY_MB: '1024 1.0',
        PCI_DEVICE: '8 100000000000000000000000000000',
        SRIOV_NET_VF: '8 1e-05',
      });
    });
  });

  describe('a read shows the stored ratio as a float', () => {
    it('in the list and for one class', async () => {
      assert.deepEqual(byClass(await read(inventories())), {
        VCPU: '8 2.0',
        DISK_GB: '100 100.0',
        MEMORY_MB: '1024 1.0',
        PCI_DEVICE: '8 1e+29',
        SRIOV_NET_VF: '8 1e-05',
      });
      assert.deepEqual(written(await read(`${inventories()}/VCPU`), 'allocation_ratio'), ['2.0']);
    });

    it('switching to an exponent at 1e16 and below 1e-4, as repr() does', async () => {
      const cases: [string, string][] = [
        ['1e15', '1000000000000000.0'],
        ['1e16', '1e+16'],
        ['1e20', '1e+20'],
        ['0.0001', '0.0001'],
        ['2.5e-7', '2.5e-07'],
        ['16', '16.0'],
        ['1.5', '1.5'],
        ['3.4e38', '3.4e+38'],
      ];
      for (const [sent, shown] of cases) {
        await send(
          'PUT',
          `${inventories()}/VCPU`,
          `{"resource_provider_generation": ${generation}, "total": 8, "allocation_ratio": ${sent}}`,
          200,
        );
        const one = await read(`${inventories()}/VCPU`);
        assert.deepEqual(written(one, 'allocation_ratio'), [shown], `sent ${sent}`);
      }
    });
  });

  describe('a capacity past 2**53', () => {
    const s = new Scenario(ctx);
    const huge = { total: 8, allocation_ratio: 1e29 };
    before(async () => {
      await s.classes('FLATHUGE', 'TREEHUGE');
      await s.provider('alone', { inventory: { FLATHUGE: huge } });
      await s.provider('root', { inventory: { TREEHUGE: huge } });
      await s.provider('child', { parent: 'root' });
    });

    it('shows all the digits of int() in provider summaries, on both paths', async () => {
      // One provider alone: the flat answer; a provider with a child: the general search.
      for (const query of ['resources={FLATHUGE}:1', 'resources={TREEHUGE}:1']) {
        const answer = await s.candidates(query, '1.39');
        assert.equal(answer.status, 200, answer.text);
        assert.deepEqual(written(answer.text, 'capacity'), ['799999999999999931465206857728']);
      }
    });
  });
});
