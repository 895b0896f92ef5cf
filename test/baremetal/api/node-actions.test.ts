/**
 * The node actions of conductor RPC 1.4 through the API and its conductor, on the three
 * backends, with fake hardware as the real Ironic 21.4.4 answers: the console (fake console
 * enabled and disabled, no-console refused), inject NMI (1.29; the fake management's
 * UnsupportedDriverExtension), boot mode and secure boot (1.76; 202, then the refusal of the
 * fake management in last_error), indicators (the fake management's two, their state `on`,
 * setting refused), vendor passthru (FakeVendorB's three node methods, no driver methods).
 * Under zed's RPC cap each is 406 after the API's own checks; Ironic's default policy decides
 * who may call them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { STANDALONE_ENABLED_INTERFACES } from '../../../src/baremetal/drivers/enabled-interfaces.ts';
import {
  type BatonApi,
  forEachApiBackend,
  pinnedCaps,
  startBatonApi,
} from './support/baton-api.ts';
import { callApi } from './support/call-api.ts';
import { projectUser, SYSTEM_ADMIN, startUnderDefaultPolicy } from './support/personas.ts';

const LATEST = '1.82';
const CONSOLES = {
  enabledInterfaces: { ...STANDALONE_ENABLED_INTERFACES, console: ['fake', 'no-console'] },
};

function call(api: BatonApi, method: string, url: string, payload?: unknown, version = LATEST) {
  return callApi(api, method, url, { payload, version });
}

async function createNode(api: BatonApi, name: string, fields: Record<string, unknown> = {}) {
  const created = await call(api, 'POST', '/v1/nodes', {
    driver: 'fake-hardware',
    name,
    ...fields,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body as { uuid: string };
}

/** The node's states once `done` holds (the conductor works in the background). */
async function statesWhen(
  api: BatonApi,
  name: string,
  done: (s: Record<string, unknown>) => boolean,
) {
  for (let i = 0; i < 400; i++) {
    const states = (await call(api, 'GET', `/v1/nodes/${name}/states`)).body;
    const node = await api.store.nodes.getByName(name);
    if (done(states) && node.get('reservation') === null) {
      return states;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${name} never reached the state awaited`);
}

const UNSUPPORTED = (what: string) =>
  `Driver fake-hardware does not support ${what} (disabled or not implemented).`;

forEachApiBackend(
  'node actions',
  (api) => {
    test('console: off at first; enabled and disabled by the conductor; 202 with its Location', async () => {
      await createNode(api(), 'con', { console_interface: 'fake' });
      const off = await call(api(), 'GET', '/v1/nodes/con/states/console');
      assert.equal(off.status, 200);
      assert.deepEqual(off.body, { console_enabled: false, console_info: null });
      const on = await call(api(), 'PUT', '/v1/nodes/con/states/console', { enabled: true });
      assert.equal(on.status, 202);
      assert.equal(on.body, undefined);
      assert.match(String(on.headers.location), /\/v1\/nodes\/con\/states\/console$/);
      await statesWhen(api(), 'con', (s) => s.console_enabled === true);
      const shown = await call(api(), 'GET', '/v1/nodes/con/states/console');
      assert.deepEqual(shown.body, { console_enabled: true, console_info: {} });
      // The same state again changes nothing, and is accepted.
      assert.equal(
        (await call(api(), 'PUT', '/v1/nodes/con/states/console', { enabled: 'true' })).status,
        202,
      );
      const offAgain = await call(api(), 'PUT', '/v1/nodes/con/states/console', { enabled: false });
      assert.equal(offAgain.status, 202);
      await statesWhen(api(), 'con', (s) => s.console_enabled === false);
      const node = (await call(api(), 'GET', '/v1/nodes/con?fields=console_enabled,last_error'))
        .body;
      assert.equal(node.console_enabled, false);
      assert.equal(node.last_error, null);
    });

    test('console: a bad or missing `enabled` is 400; no-console is the real refusal', async () => {
      const bad = await call(api(), 'PUT', '/v1/nodes/con/states/console', { enabled: 'maybe' });
      assert.equal(bad.status, 400);
      assert.match(
        bad.fault(),
        /^Invalid enabled: Unrecognized value 'maybe', acceptable values are: /,
      );
      const missing = await call(api(), 'PUT', '/v1/nodes/con/states/console', {});
      assert.equal(missing.status, 400);
      await createNode(api(), 'nocon', { console_interface: 'no-console' });
      const refused = await call(api(), 'PUT', '/v1/nodes/nocon/states/console', { enabled: true });
      assert.equal(refused.status, 400);
      assert.equal(refused.fault(), UNSUPPORTED('console'));
      // Not enabled is checked before the interface, as in the real conductor.
      const shown = await call(api(), 'GET', '/v1/nodes/nocon/states/console');
      assert.deepEqual(shown.body, { console_enabled: false, console_info: null });
      const missingNode = await call(api(), 'GET', '/v1/nodes/missing/states/console');
      assert.equal(missingNode.status, 404);
      assert.equal(missingNode.fault(), 'Node missing could not be found.');
    });

    test('a console that cannot be started on takeover is turned off; one that cannot be stopped fails the tear-down', async () => {
      const provision = async (name: string, target: string, stable: string) => {
        const answer = await call(api(), 'PUT', `/v1/nodes/${name}/states/provision`, { target });
        assert.equal(answer.status, 202, `${target}: ${JSON.stringify(answer.body)}`);
        return statesWhen(
          api(),
          name,
          (s) => s.provision_state === stable || s.provision_state === 'error',
        );
      };
      const noConsole = [{ op: 'replace', path: '/console_interface', value: 'no-console' }];
      // Adoption takes the node over: its console is started again, and cannot be.
      const { uuid } = await createNode(api(), 'adopted', { console_interface: 'fake' });
      await call(api(), 'PUT', '/v1/nodes/adopted/states/console', { enabled: true });
      await statesWhen(api(), 'adopted', (s) => s.console_enabled === true);
      assert.equal((await call(api(), 'PATCH', '/v1/nodes/adopted', noConsole)).status, 200);
      await provision('adopted', 'manage', 'manageable');
      const adopted = await provision('adopted', 'adopt', 'active');
      assert.equal(adopted.provision_state, 'active');
      assert.equal(adopted.console_enabled, false);
      assert.equal(
        adopted.last_error,
        `Failed to start console while taking over the node ${uuid}: ${UNSUPPORTED('console')}.`,
      );
      // Undeploying stops the console and keeps it enabled; a console that cannot be stopped
      // fails the tear-down.
      await createNode(api(), 'undeployed', { console_interface: 'fake' });
      await provision('undeployed', 'manage', 'manageable');
      await provision('undeployed', 'provide', 'available');
      await provision('undeployed', 'active', 'active');
      await call(api(), 'PUT', '/v1/nodes/undeployed/states/console', { enabled: true });
      await statesWhen(api(), 'undeployed', (s) => s.console_enabled === true);
      const torn = await provision('undeployed', 'deleted', 'available');
      assert.equal(torn.console_enabled, true);
      await provision('undeployed', 'active', 'active');
      await call(api(), 'PUT', '/v1/nodes/undeployed/maintenance', {});
      assert.equal((await call(api(), 'PATCH', '/v1/nodes/undeployed', noConsole)).status, 200);
      await call(api(), 'DELETE', '/v1/nodes/undeployed/maintenance');
      const failed = await provision('undeployed', 'deleted', 'available');
      assert.equal(failed.provision_state, 'error');
      assert.equal(failed.last_error, `Failed to tear down: ${UNSUPPORTED('console')}`);
    });

    test('inject NMI: 404 below 1.29; the fake management refuses it (400)', async () => {
      await createNode(api(), 'nmi');
      const old = await call(api(), 'PUT', '/v1/nodes/nmi/management/inject_nmi', {}, '1.28');
      assert.equal(old.status, 404);
      assert.equal(old.fault(), 'Resource could not be found.');
      const refused = await call(api(), 'PUT', '/v1/nodes/nmi/management/inject_nmi', {});
      assert.equal(refused.status, 400);
      assert.equal(refused.fault(), UNSUPPORTED('inject_nmi'));
      const node = await api().store.nodes.getByName('nmi');
      assert.equal(node.get('reservation'), null);
    });

    test('boot mode: 404 below 1.76, the target checked, 409 while transitioning, 202 then last_error', async () => {
      await createNode(api(), 'bm');
      const old = await call(
        api(),
        'PUT',
        '/v1/nodes/bm/states/boot_mode',
        { target: 'uefi' },
        '1.75',
      );
      assert.equal(old.status, 404);
      assert.equal(old.fault(), 'This endpoint is supported starting with the API version 1.76');
      const wrong = await call(api(), 'PUT', '/v1/nodes/bm/states/boot_mode', { target: 'efi' });
      assert.equal(wrong.status, 400);
      assert.equal(
        wrong.fault(),
        'Invalid boot mode efi requested for node. Allowed boot modes are: bios, uefi',
      );
      const accepted = await call(api(), 'PUT', '/v1/nodes/bm/states/boot_mode', {
        target: 'uefi',
      });
      assert.equal(accepted.status, 202);
      assert.match(String(accepted.headers.location), /\/v1\/nodes\/bm\/states$/);
      const states = await statesWhen(api(), 'bm', (s) => s.last_error !== null);
      assert.equal(
        states.last_error,
        `Failed to change boot mode to 'uefi: ${UNSUPPORTED('set_boot_mode')}`,
      );
      assert.equal(states.boot_mode, null);
      const node = await api().store.nodes.getByName('bm');
      node.set('provision_state', 'deploying');
      await api().store.nodes.save(node);
      const busy = await call(api(), 'PUT', '/v1/nodes/bm/states/boot_mode', { target: 'bios' });
      assert.equal(busy.status, 409);
      assert.equal(
        busy.fault(),
        'Node is in %(state)s state. Since node is transitioning, the boot mode will not be set as this may interfere with ongoing changes and result in erroneous modification. Try again later.',
      );
    });

    test('secure boot: the target is a boolean; 202 then the fake refusal in last_error', async () => {
      await createNode(api(), 'sb');
      const old = await call(
        api(),
        'PUT',
        '/v1/nodes/sb/states/secure_boot',
        { target: true },
        '1.75',
      );
      assert.equal(old.status, 404);
      const wrong = await call(api(), 'PUT', '/v1/nodes/sb/states/secure_boot', {
        target: 'maybe',
      });
      assert.equal(wrong.status, 400);
      assert.match(wrong.fault(), /^Invalid target: Unrecognized value 'maybe'/);
      const none = await call(api(), 'PUT', '/v1/nodes/sb/states/secure_boot', { target: null });
      assert.equal(none.status, 400);
      assert.equal(
        none.fault(),
        'Invalid secure_boot None requested for node. Allowed secure_boot states are: True, False) ',
      );
      const accepted = await call(api(), 'PUT', '/v1/nodes/sb/states/secure_boot', {
        target: true,
      });
      assert.equal(accepted.status, 202);
      const states = await statesWhen(api(), 'sb', (s) => s.last_error !== null);
      assert.equal(
        states.last_error,
        `Failed to change secure_boot state to 'True': ${UNSUPPORTED('set_secure_boot_state')}`,
      );
      assert.equal(states.secure_boot, null);
    });

    test('indicators: the fake two, each `on`; a bad name, component or indicator is 400; setting is refused', async () => {
      const { uuid } = await createNode(api(), 'led');
      const listed = await call(api(), 'GET', '/v1/nodes/led/management/indicators');
      assert.equal(listed.status, 200);
      const link = (name: string, bookmark: boolean) =>
        `http://localhost:80${bookmark ? '' : '/v1'}/nodes/led/management/indicators/${name}`;
      assert.deepEqual(listed.body, {
        indicators: [
          {
            name: 'led-0@chassis',
            component: 'chassis',
            readonly: true,
            states: ['off', 'on'],
            links: [
              { href: link('led-0@chassis', false), rel: 'self' },
              { href: link('led-0@chassis', true), rel: 'bookmark' },
            ],
          },
          {
            name: 'led@system',
            component: 'system',
            readonly: false,
            states: ['blinking', 'off', 'on'],
            links: [
              { href: link('led@system', false), rel: 'self' },
              { href: link('led@system', true), rel: 'bookmark' },
            ],
          },
        ],
      });
      const one = await call(api(), 'GET', `/v1/nodes/${uuid}/management/indicators/led@system`);
      assert.deepEqual(one.body, { state: 'on' });
      const chassis = await call(api(), 'GET', '/v1/nodes/led/management/indicators/led-0@chassis');
      assert.deepEqual(chassis.body, { state: 'on' });
      const cases: [string, string][] = [
        ['led', 'Malformed indicator name "led"'],
        ['led@disk', 'Invalid component disk specified.'],
        ['nope@system', 'Invalid indicator nope specified.'],
      ];
      for (const [name, message] of cases) {
        const refused = await call(api(), 'GET', `/v1/nodes/led/management/indicators/${name}`);
        assert.equal(refused.status, 400, name);
        assert.equal(refused.fault(), message);
      }
      const set = await call(api(), 'PUT', '/v1/nodes/led/management/indicators/led@system', {
        state: 'off',
      });
      assert.equal(set.status, 400);
      assert.equal(set.fault(), UNSUPPORTED('set_indicator_state'));
      assert.equal((await api().store.nodes.getByName('led')).get('reservation'), null);
    });

    test("vendor passthru: the fake vendor's three methods, listed and called, sync 200, async 202", async () => {
      await createNode(api(), 'vendor');
      const listed = await call(api(), 'GET', '/v1/nodes/vendor/vendor_passthru/methods');
      assert.equal(listed.status, 200);
      const method = (word: string, async: boolean, exclusive: boolean) => ({
        http_methods: ['POST'],
        async,
        description: `Test if the value of bar is ${word}`,
        attach: false,
        require_exclusive_lock: exclusive,
      });
      assert.deepEqual(listed.body, {
        fourth_method_shared_lock: method('woof', true, false),
        second_method: method('kazoo', true, true),
        third_method_sync: method('meow', false, true),
      });
      const url = (name: string) => `/v1/nodes/vendor/vendor_passthru?method=${name}`;
      const yes = await call(api(), 'POST', url('third_method_sync'), { bar: 'meow' });
      assert.equal(yes.status, 200);
      assert.equal(yes.body, true);
      const no = await call(api(), 'POST', url('third_method_sync'), { bar: 'woof' });
      assert.equal(no.body, false);
      // The method as the path's last segment, as the real client sends it.
      const inPath = await call(
        api(),
        'POST',
        '/v1/nodes/vendor/vendor_passthru/third_method_sync',
        {
          bar: 'meow',
        },
      );
      assert.equal(inPath.status, 200);
      assert.equal(inPath.body, true);
      for (const name of ['second_method', 'fourth_method_shared_lock']) {
        const started = await call(api(), 'POST', url(name), { bar: 'x' });
        assert.equal(started.status, 202, name);
        assert.equal(started.body, undefined);
      }
      await statesWhen(api(), 'vendor', (s) => s.last_error === null);
      const refusals: [string, string, unknown, number, string][] = [
        ['POST', 'nope', {}, 400, 'No handler for method nope'],
        [
          'GET',
          'second_method',
          undefined,
          400,
          'The method second_method does not support HTTP GET',
        ],
        ['POST', 'second_method', {}, 400, "Parameter 'bar' not passed to method 'second_method'."],
        [
          'POST',
          'third_method_sync',
          { bar: '' },
          400,
          "Parameter 'bar' not passed to method 'third_method_sync'.",
        ],
        ['POST', '', {}, 400, 'Method not specified'],
        [
          'POST',
          'third_method_sync',
          { bar: 'meow', other: 1 },
          500,
          "FakeVendorB.third_method_sync() got an unexpected keyword argument 'other'",
        ],
      ];
      for (const [verb, name, body, status, message] of refusals) {
        const refused = await call(api(), verb, url(name), body);
        assert.equal(refused.status, status, `${verb} ${name}`);
        assert.equal(refused.fault(), message);
      }
      const missing = await call(api(), 'POST', '/v1/nodes/vendor/vendor_passthru', {});
      assert.equal(missing.fault(), 'Missing mandatory parameter: method');
      // An asynchronous method's failure is the node's last_error, as the real task writes it.
      const failing = await call(api(), 'POST', url('second_method'), { bar: 'kazoo', other: 1 });
      assert.equal(failing.status, 202);
      const states = await statesWhen(api(), 'vendor', (s) => s.last_error !== null);
      assert.equal(
        states.last_error,
        "Async execution of second_method failed with error: FakeVendorB.second_method() got an unexpected keyword argument 'other'",
      );
      // no-vendor: nothing to list, nothing to call.
      await createNode(api(), 'novendor', { vendor_interface: 'no-vendor' });
      const none = await call(api(), 'GET', '/v1/nodes/novendor/vendor_passthru/methods');
      assert.deepEqual(none.body, {});
      const unhandled = await call(
        api(),
        'POST',
        '/v1/nodes/novendor/vendor_passthru?method=second_method',
        { bar: 'x' },
      );
      assert.equal(unhandled.fault(), 'No handler for method second_method');
    });

    test('driver vendor passthru: fake-hardware has no methods; an unknown driver is 404', async () => {
      const listed = await call(api(), 'GET', '/v1/drivers/fake-hardware/vendor_passthru/methods');
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.body, {});
      const called = await call(
        api(),
        'POST',
        '/v1/drivers/fake-hardware/vendor_passthru?method=first_method',
        {
          bar: 'baz',
        },
      );
      assert.equal(called.status, 400);
      assert.equal(called.fault(), 'No handler for method first_method');
      const unknown = await call(api(), 'GET', '/v1/drivers/ipmi/vendor_passthru/methods');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.fault(), "The driver 'ipmi' is unknown.");
    });
  },
  { conductor: CONSOLES },
);

test("under zed's RPC cap, every node action is 406 after the API's own checks", async () => {
  // Automatic caps from a zed conductor: RPC 1.0, the API maximum left at antelope's.
  const baton = await startBatonApi({
    caps: { ...pinnedCaps('zed'), apiMax: pinnedCaps('antelope').apiMax },
  });
  try {
    await createNode(baton, 'zed');
    const refusals: [string, string, unknown?][] = [
      ['GET', '/v1/nodes/zed/states/console'],
      ['PUT', '/v1/nodes/zed/states/console', { enabled: true }],
      ['PUT', '/v1/nodes/zed/management/inject_nmi', {}],
      ['PUT', '/v1/nodes/zed/states/boot_mode', { target: 'uefi' }],
      ['PUT', '/v1/nodes/zed/states/secure_boot', { target: false }],
      ['GET', '/v1/nodes/zed/management/indicators'],
      ['GET', '/v1/nodes/zed/management/indicators/led@system'],
      ['PUT', '/v1/nodes/zed/management/indicators/led@system', { state: 'on' }],
      ['GET', '/v1/nodes/zed/vendor_passthru/methods'],
      ['POST', '/v1/nodes/zed/vendor_passthru?method=third_method_sync', { bar: 'meow' }],
      ['GET', '/v1/drivers/fake-hardware/vendor_passthru/methods'],
      ['POST', '/v1/drivers/fake-hardware/vendor_passthru?method=x', {}],
    ];
    for (const [method, url, body] of refusals) {
      const answer = await call(baton, method, url, body);
      assert.equal(answer.status, 406, `${method} ${url}`);
      assert.equal(
        answer.fault(),
        'Request not acceptable. This node action needs conductor RPC API 1.4, above the version cap in force',
      );
    }
    // The API's own checks come first.
    const wrong = await call(baton, 'PUT', '/v1/nodes/zed/states/boot_mode', { target: 'efi' });
    assert.equal(wrong.status, 400);
    const malformed = await call(baton, 'GET', '/v1/nodes/zed/management/indicators/led');
    assert.equal(malformed.status, 400);
  } finally {
    await baton.close();
  }
});

const OWNER = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
const LESSEE = '0123456789abcdef0123456789abcdef';

describe("Ironic's default policy on the node actions", () => {
  let api: BatonApi;

  before(async () => {
    api = await startUnderDefaultPolicy({ conductor: CONSOLES });
    const created = await as(SYSTEM_ADMIN, 'POST', '/v1/nodes', {
      driver: 'fake-hardware',
      name: 'owned',
      owner: OWNER,
      lessee: LESSEE,
      console_interface: 'fake',
    });
    assert.equal(created.statusCode, 201, created.body);
  });
  after(() => api?.close());

  const as = (
    who: Record<string, string>,
    method: string,
    url: string,
    payload?: unknown,
    version = LATEST,
  ) =>
    api.request({
      method: method as 'GET',
      url,
      headers: { ...who, 'x-openstack-ironic-api-version': version },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it("the owner's members reach the console; its readers and the lessee's members do not", async () => {
    assert.equal(
      (await as(projectUser(OWNER, 'member'), 'GET', '/v1/nodes/owned/states/console')).statusCode,
      200,
    );
    const reader = await as(projectUser(OWNER, 'reader'), 'GET', '/v1/nodes/owned/states/console');
    assert.equal(reader.statusCode, 403);
    assert.match(reader.body, /baremetal:node:get_console/);
    const lessee = await as(
      projectUser(LESSEE, 'member'),
      'PUT',
      '/v1/nodes/owned/states/console',
      {
        enabled: true,
      },
    );
    assert.equal(lessee.statusCode, 403);
    assert.match(lessee.body, /baremetal:node:set_console_state/);
  });

  it("inject NMI is the owner's admins'; below 1.29 the real 404 comes before the policy", async () => {
    const member = await as(
      projectUser(OWNER, 'member'),
      'PUT',
      '/v1/nodes/owned/management/inject_nmi',
      {},
    );
    assert.equal(member.statusCode, 403);
    assert.match(member.body, /baremetal:node:inject_nmi/);
    const old = await as(
      projectUser(OWNER, 'member'),
      'PUT',
      '/v1/nodes/owned/management/inject_nmi',
      {},
      '1.28',
    );
    assert.equal(old.statusCode, 404);
    const admin = await as(
      projectUser(OWNER, 'admin'),
      'PUT',
      '/v1/nodes/owned/management/inject_nmi',
      {},
    );
    assert.equal(admin.statusCode, 400);
  });

  it("vendor passthru is a system admin's (or a legacy admin's); the owner's members are refused", async () => {
    const member = await as(
      projectUser(OWNER, 'member'),
      'GET',
      '/v1/nodes/owned/vendor_passthru/methods',
    );
    assert.equal(member.statusCode, 403);
    assert.match(member.body, /baremetal:node:vendor_passthru/);
    const admin = await as(
      SYSTEM_ADMIN,
      'POST',
      '/v1/nodes/owned/vendor_passthru?method=third_method_sync',
      {
        bar: 'meow',
      },
    );
    assert.equal(admin.statusCode, 200, admin.body);
    assert.equal(admin.json(), true);
    const driver = await as(
      projectUser(OWNER, 'member'),
      'GET',
      '/v1/drivers/fake-hardware/vendor_passthru/methods',
    );
    assert.equal(driver.statusCode, 403);
    assert.match(driver.body, /baremetal:driver:vendor_passthru/);
    const systemDriver = await as(
      SYSTEM_ADMIN,
      'GET',
      '/v1/drivers/fake-hardware/vendor_passthru/methods',
    );
    assert.equal(systemDriver.statusCode, 200);
  });

  it("boot mode is a member's of the owner or the lessee; indicators a reader's", async () => {
    const lessee = await as(
      projectUser(LESSEE, 'member'),
      'PUT',
      '/v1/nodes/owned/states/boot_mode',
      {
        target: 'uefi',
      },
    );
    assert.equal(lessee.statusCode, 202, lessee.body);
    const reader = await as(
      projectUser(LESSEE, 'reader'),
      'PUT',
      '/v1/nodes/owned/states/secure_boot',
      {
        target: true,
      },
    );
    assert.equal(reader.statusCode, 403);
    assert.match(reader.body, /baremetal:node:set_secure_boot/);
    const leds = await as(
      projectUser(LESSEE, 'reader'),
      'GET',
      '/v1/nodes/owned/management/indicators',
    );
    assert.equal(leds.statusCode, 200);
    const set = await as(
      projectUser(LESSEE, 'reader'),
      'PUT',
      '/v1/nodes/owned/management/indicators/led@system',
      {
        state: 'on',
      },
    );
    assert.equal(set.statusCode, 403);
    assert.match(set.body, /baremetal:node:set_indicator_state/);
    const stranger = await as(
      projectUser('ffffffffffffffffffffffffffffffff', 'member'),
      'GET',
      '/v1/nodes/owned/management/indicators',
    );
    assert.equal(stranger.statusCode, 404);
  });
});
