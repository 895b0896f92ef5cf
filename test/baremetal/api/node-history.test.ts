/**
 * /v1/nodes/{node}/history on the three backends, as the real NodeHistoryController serves it:
 * WebOb's 404 below 1.78; the standard and detailed forms (a long event cut to 251 characters
 * and `...` unless detailed); pages by `limit` and `marker` with the real `next` link; an
 * unknown marker or event is NodeHistoryNotFound; no `fields`. Then what the conductor records:
 * a deployment that fails with fake hardware (a deploy template disabling `deploy.deploy`)
 * leaves the real event (`deploying`, ERROR, this conductor), and the node's history goes with
 * the node; `[conductor] node_history = False` records nothing but last_error; the cleanup
 * keeps `node_history_max_entries` per node.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConductorContext } from '../../../src/baremetal/conductor/conductor-context.ts';
import {
  cleanUpNodeHistory,
  recordHistory,
} from '../../../src/baremetal/conductor/node-history.ts';
import { Node, NodeHistory } from '../../../src/baremetal/objects/index.ts';
import { type BatonApi, forEachApiBackend } from './support/baton-api.ts';
import { callApi } from './support/call-api.ts';

function call(
  api: BatonApi,
  url: string,
  options: { version?: string; method?: string; payload?: unknown } = {},
) {
  return callApi(api, options.method ?? 'GET', url, options);
}

async function nodeWithEvents(api: BatonApi, name: string, events: string[]) {
  const node = await api.store.nodes.create(
    Node.create({ driver: 'fake-hardware', name } as never),
  );
  const written = [];
  for (const [i, event] of events.entries()) {
    written.push(
      await api.store.nodeHistory.create(
        NodeHistory.create({
          node_id: Number(node.get('id')),
          conductor: 'c1',
          user: null,
          severity: i === 0 ? 'INFO' : 'ERROR',
          event,
          event_type: 'deploying',
        }),
      ),
    );
  }
  return { node, events: written };
}

async function provisioned(api: BatonApi, node: string) {
  for (let i = 0; i < 400; i++) {
    const shown = await call(
      api,
      `/v1/nodes/${node}?fields=provision_state,last_error,target_provision_state`,
    );
    if (shown.body.target_provision_state === null || /failed/.test(shown.body.provision_state))
      return shown.body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${node} kept moving`);
}

forEachApiBackend('node history', (api) => {
  test('below 1.78 the route is WebOb 404, before the node is looked at', async () => {
    await nodeWithEvents(api(), 'hist-gate', ['one']);
    for (const url of ['/v1/nodes/hist-gate/history', '/v1/nodes/nowhere/history/x']) {
      const answer = await call(api(), url, { version: '1.77' });
      assert.equal(answer.status, 404);
      assert.equal(JSON.parse(answer.body.error_message).description, '');
    }
  });

  test('the list, standard and detailed; a long event is cut unless detailed', async () => {
    const long = 'x'.repeat(300);
    const { node, events } = await nodeWithEvents(api(), 'hist-list', ['first', long]);
    const listed = await call(api(), '/v1/nodes/hist-list/history');
    assert.equal(listed.status, 200);
    const [first, second] = listed.body.history;
    assert.deepEqual(Object.keys(first), ['uuid', 'created_at', 'severity', 'event', 'links']);
    assert.equal(first.uuid, events[0]?.get('uuid'));
    assert.equal(first.severity, 'INFO');
    assert.equal(first.event, 'first');
    assert.deepEqual(first.links.length, 1);
    assert.equal(first.links[0].rel, 'self');
    assert.equal(
      new URL(first.links[0].href).pathname,
      `/v1/nodes/${node.get('uuid')}/history/${first.uuid}`,
    );
    assert.equal(second.event, `${'x'.repeat(251)}...`);
    assert.equal(listed.body.next, undefined);
    const detailed = await call(api(), '/v1/nodes/hist-list/history?detail=True');
    assert.deepEqual(Object.keys(detailed.body.history[1]), [
      'uuid',
      'created_at',
      'severity',
      'event_type',
      'event',
      'conductor',
      'user',
      'links',
    ]);
    assert.equal(detailed.body.history[1].event, long);
    assert.equal(detailed.body.history[1].event_type, 'deploying');
    assert.equal(detailed.body.history[1].conductor, 'c1');
    assert.equal(detailed.body.history[1].user, null);
    const fields = await call(api(), '/v1/nodes/hist-list/history?fields=uuid');
    assert.equal(fields.status, 400);
    assert.equal(fields.fault(), 'Unexpected arguments: fields');
  });

  test('pages: limit and marker, the real next link; an unknown marker is NodeHistoryNotFound', async () => {
    const { node, events } = await nodeWithEvents(api(), 'hist-page', ['a', 'b', 'c']);
    const page = await call(api(), '/v1/nodes/hist-page/history?limit=2');
    assert.deepEqual(
      page.body.history.map((e: { event: string }) => e.event),
      ['a', 'b'],
    );
    const next = new URL(page.body.next);
    assert.equal(next.pathname, '/v1/nodes/hist-page/history');
    assert.equal(
      next.search,
      `?marker=None&fields=uuid,created_at,severity,event&limit=2&marker=${events[1]?.get('uuid')}`,
    );
    const rest = await call(
      api(),
      `/v1/nodes/${node.get('uuid')}/history?limit=2&marker=${events[1]?.get('uuid')}`,
    );
    assert.deepEqual(
      rest.body.history.map((e: { event: string }) => e.event),
      ['c'],
    );
    const unknown = '6f1c1a77-0000-4000-8000-000000000000';
    const missing = await call(api(), `/v1/nodes/hist-page/history?marker=${unknown}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.fault(), `Node history record ${unknown} could not be found.`);
    const bad = await call(api(), '/v1/nodes/hist-page/history?marker=nope');
    assert.equal(bad.status, 400);
    assert.equal(bad.fault(), 'Expected UUID for marker: nope');
  });

  test('one event, in detail; found by its UUID whatever its node, as the real one', async () => {
    const { events } = await nodeWithEvents(api(), 'hist-one', ['only']);
    await nodeWithEvents(api(), 'hist-other', []);
    const uuid = String(events[0]?.get('uuid'));
    const shown = await call(api(), `/v1/nodes/hist-one/history/${uuid}`);
    assert.equal(shown.status, 200);
    assert.equal(shown.body.event_type, 'deploying');
    assert.equal(shown.body.event, 'only');
    assert.equal((await call(api(), `/v1/nodes/hist-other/history/${uuid}`)).status, 200);
    const missing = await call(api(), '/v1/nodes/hist-one/history/no-such-event');
    assert.equal(missing.status, 404);
    assert.equal(missing.fault(), 'Node history record no-such-event could not be found.');
  });

  test('a deployment failing with fake hardware is recorded; the history goes with the node', async () => {
    const step = { interface: 'deploy', step: 'deploy', args: {}, priority: 0 };
    await call(api(), '/v1/deploy_templates', {
      method: 'POST',
      payload: { name: 'CUSTOM_HIST_OFF', steps: [step] },
    });
    await call(api(), '/v1/nodes', {
      method: 'POST',
      payload: { driver: 'fake-hardware', name: 'hist-deploy' },
    });
    await call(api(), '/v1/nodes/hist-deploy/traits', {
      method: 'PUT',
      payload: { traits: ['CUSTOM_HIST_OFF'] },
    });
    for (const target of ['manage', 'provide']) {
      await call(api(), '/v1/nodes/hist-deploy/states/provision', {
        method: 'PUT',
        payload: { target },
      });
      await provisioned(api(), 'hist-deploy');
    }
    await call(api(), '/v1/nodes/hist-deploy', {
      method: 'PATCH',
      payload: [{ op: 'add', path: '/instance_info/traits', value: ['CUSTOM_HIST_OFF'] }],
    });
    await call(api(), '/v1/nodes/hist-deploy/states/provision', {
      method: 'PUT',
      payload: { target: 'active' },
    });
    const failed = await provisioned(api(), 'hist-deploy');
    assert.equal(failed.provision_state, 'deploy failed');
    const history = await call(api(), '/v1/nodes/hist-deploy/history?detail=True');
    assert.equal(history.status, 200);
    const events = history.body.history.map((e: Record<string, unknown>) => ({
      severity: e.severity,
      event_type: e.event_type,
      event: e.event,
      conductor: e.conductor,
      user: e.user,
    }));
    assert.deepEqual(events, [
      {
        severity: 'ERROR',
        event_type: 'deploying',
        event: 'No deploy steps returned by the driver',
        conductor: api().conductors[0]?.context.settings.host,
        user: null,
      },
    ]);
    const node = await api().store.nodes.getByName('hist-deploy');
    await call(api(), '/v1/nodes/hist-deploy/states/provision', {
      method: 'PUT',
      payload: { target: 'deleted' },
    });
    await provisioned(api(), 'hist-deploy');
    const deleted = await call(api(), '/v1/nodes/hist-deploy', { method: 'DELETE' });
    assert.equal(deleted.status, 204);
    assert.deepEqual(await api().store.nodeHistory.list(Number(node.get('id'))), []);
  });

  test('node_history off: last_error only; the cleanup keeps the newest max entries', async () => {
    const conductor = api().conductors[0];
    assert.ok(conductor);
    const ctx = conductor.context;
    const node = await api().store.nodes.create(
      Node.create({ driver: 'fake-hardware', name: 'hist-off' } as never),
    );
    const off = { ...ctx, settings: { ...ctx.settings, nodeHistory: false } } as ConductorContext;
    await recordHistory(off, node, 'not recorded', { eventType: 'deploying' });
    assert.equal(node.get('last_error'), 'not recorded');
    assert.deepEqual(await api().store.nodeHistory.list(Number(node.get('id'))), []);
    // The cleanup looks after the nodes of this conductor (conductor_affinity).
    node.set('conductor_affinity', ctx.conductorId ?? null);
    const saved = await api().store.nodes.save(node);
    for (const event of ['e1', 'e2', 'e3', 'e4']) {
      await recordHistory(ctx, saved, event, { eventType: 'monitoring', error: false });
    }
    const kept = { ...ctx, settings: { ...ctx.settings, nodeHistoryMaxEntries: 2 } };
    assert.equal(await cleanUpNodeHistory(kept as ConductorContext), 2);
    const left = await api().store.nodeHistory.list(Number(node.get('id')));
    assert.deepEqual(
      left.map((e) => [e.get('event'), e.get('severity')]),
      [
        ['e3', 'INFO'],
        ['e4', 'INFO'],
      ],
    );
  });
});
