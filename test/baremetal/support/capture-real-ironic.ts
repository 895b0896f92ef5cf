/**
 * Records what the real Ironic 21.4.4 answers about its drivers and a fake-hardware node,
 * into test/baremetal/fixtures/real-ironic/*.json, for the tests that hold Baton's data to it.
 * Run it again (on a machine with the real service) after changing the harness's setup:
 *
 *   npx tsx test/baremetal/support/capture-real-ironic.ts
 *
 * Answers are normalised so that they do not depend on the run: the API's address becomes
 * http://127.0.0.1:6385 and node UUIDs become {node}; the conductor is the harness's
 * 127.0.0.1. A request asked at every microversion is stored once per run of consecutive
 * versions that answer the same (`from`..`to`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RealIronic, startRealIronic } from '../../support/real-ironic.ts';

export const FIXTURE_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'real-ironic',
);
export const FIXTURE_URL = 'http://127.0.0.1:6385';
const LATEST_MINOR = 82;

export interface Observation {
  readonly request: string;
  readonly from: string;
  readonly to: string;
  readonly status: number;
  readonly body: unknown;
}

interface Ask {
  (method: string, path: string, version: string, body?: unknown): Promise<Answer>;
  /** The run-independent form of a text (address and node UUIDs replaced). */
  normalize(text: string): string;
}
interface Answer {
  status: number;
  body: unknown;
}

function asker(ironic: RealIronic, uuids: Map<string, string>): Ask {
  const normalize = (text: string) => {
    let out = text.replaceAll(ironic.url, FIXTURE_URL);
    for (const [uuid, name] of uuids) out = out.replaceAll(uuid, name);
    return out;
  };
  const ask = async (method: string, path: string, version: string, body?: unknown) => {
    const response = await fetch(`${ironic.url}${path}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        'X-OpenStack-Ironic-API-Version': version,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = normalize(await response.text());
    return { status: response.status, body: text === '' ? null : JSON.parse(text) };
  };
  return Object.assign(ask, { normalize });
}

/** Asks `path` at 1.1 .. 1.82 and groups consecutive identical answers. */
async function everyVersion(ask: Ask, method: string, path: string): Promise<Observation[]> {
  const groups: Observation[] = [];
  for (let minor = 1; minor <= LATEST_MINOR; minor++) {
    const version = `1.${minor}`;
    const answer = await ask(method, path, version);
    const last = groups.at(-1);
    if (
      last &&
      last.status === answer.status &&
      JSON.stringify(last.body) === JSON.stringify(answer.body)
    ) {
      groups[groups.length - 1] = { ...last, to: version };
    } else {
      groups.push({
        request: ask.normalize(`${method} ${path}`),
        from: version,
        to: version,
        status: answer.status,
        body: answer.body,
      });
    }
  }
  return groups;
}

async function once(ask: Ask, method: string, path: string, version: string, body?: unknown) {
  const answer = await ask(method, path, version, body);
  return {
    request: ask.normalize(`${method} ${path}`),
    ...(body === undefined ? {} : { requestBody: body }),
    from: version,
    to: version,
    ...answer,
  };
}

async function waitForPower(ask: Ask, node: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const states = (await ask('GET', `/v1/nodes/${node}/states`, '1.80')).body as {
      target_power_state: string | null;
    };
    if (states.target_power_state === null) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('power action did not finish');
}

async function captureDrivers(ask: Ask): Promise<Observation[]> {
  const out: Observation[] = [];
  for (const path of [
    '/v1/drivers',
    '/v1/drivers?detail=true',
    '/v1/drivers/fake-hardware',
    '/v1/drivers/fake-hardware/properties',
    '/v1/drivers/fake-hardware/raid/logical_disk_properties',
  ]) {
    out.push(...(await everyVersion(ask, 'GET', path)));
  }
  for (const [path, versions] of [
    ['/v1/drivers?detail=false', ['1.80']],
    ['/v1/drivers?type=dynamic', ['1.29', '1.30']],
    ['/v1/drivers?type=classic', ['1.30']],
    ['/v1/drivers?type=bogus', ['1.30']],
    ['/v1/drivers?detail=bogus', ['1.30']],
    ['/v1/drivers?fields=name,hosts', ['1.76', '1.77']],
    ['/v1/drivers?detail=true&fields=name,default_power_interface', ['1.77']],
    ['/v1/drivers/fake-hardware?fields=name,enabled_power_interfaces', ['1.76', '1.77']],
    ['/v1/drivers/fake-hardware?fields=bogus', ['1.77']],
    ['/v1/drivers/ipmi', ['1.1', '1.80']],
    ['/v1/drivers/ipmi/properties', ['1.80']],
  ] as const) {
    for (const version of versions) out.push(await once(ask, 'GET', path, version));
  }
  return out;
}

async function captureNode(ask: Ask, uuids: Map<string, string>): Promise<Observation[]> {
  const out: Observation[] = [];
  const created = await ask('POST', '/v1/nodes', '1.80', { driver: 'fake-hardware' });
  const node = (created.body as { uuid: string }).uuid;
  uuids.set(node, '{node}');
  const bare = await ask('POST', '/v1/nodes', '1.80', {
    driver: 'fake-hardware',
    bios_interface: 'no-bios',
    inspect_interface: 'no-inspect',
    raid_interface: 'no-raid',
    rescue_interface: 'no-rescue',
    vendor_interface: 'no-vendor',
  });
  uuids.set((bare.body as { uuid: string }).uuid, '{bare-node}');
  const fields =
    'fields=bios_interface,boot_interface,console_interface,deploy_interface,inspect_interface,management_interface,network_interface,power_interface,raid_interface,rescue_interface,storage_interface,vendor_interface';
  out.push(await once(ask, 'GET', `/v1/nodes/${node}?${fields}`, '1.80'));
  out.push(...(await everyVersion(ask, 'GET', `/v1/nodes/${node}/validate`)));
  out.push(
    await once(ask, 'GET', `/v1/nodes/${(bare.body as { uuid: string }).uuid}/validate`, '1.80'),
  );
  out.push(await once(ask, 'GET', `/v1/nodes/${node}/management/boot_device`, '1.80'));
  out.push(await once(ask, 'GET', `/v1/nodes/${node}/management/boot_device/supported`, '1.80'));
  for (const body of [
    { boot_device: 'disk' },
    { boot_device: 'pxe', persistent: true },
    { boot_device: 'bogus' },
  ]) {
    out.push(await once(ask, 'PUT', `/v1/nodes/${node}/management/boot_device`, '1.80', body));
  }
  out.push(await once(ask, 'GET', `/v1/nodes/${node}/management/boot_device`, '1.80'));
  out.push(await once(ask, 'GET', `/v1/nodes/${node}/states`, '1.80'));
  for (const target of ['power on', 'rebooting', 'soft rebooting', 'soft power off', 'power off']) {
    out.push(await once(ask, 'PUT', `/v1/nodes/${node}/states/power`, '1.80', { target }));
    await waitForPower(ask, node);
    out.push(await once(ask, 'GET', `/v1/nodes/${node}/states`, '1.80'));
  }
  out.push(
    await once(ask, 'PUT', `/v1/nodes/${node}/states/power`, '1.26', { target: 'soft power off' }),
  );
  out.push(await once(ask, 'PUT', `/v1/nodes/${node}/states/power`, '1.80', { target: 'bogus' }));
  out.push(await once(ask, 'POST', '/v1/nodes', '1.80', { driver: 'ipmi' }));
  out.push(
    await once(ask, 'POST', '/v1/nodes', '1.80', {
      driver: 'fake-hardware',
      conductor_group: 'rack2',
    }),
  );
  for (const [field, value] of [
    ['bios_interface', 'bogus'],
    ['network_interface', 'flat'],
    ['console_interface', 'fake'],
  ] as const) {
    out.push(
      await once(ask, 'POST', '/v1/nodes', '1.80', { driver: 'fake-hardware', [field]: value }),
    );
  }
  out.push(
    await once(ask, 'PATCH', `/v1/nodes/${node}`, '1.80', [
      { op: 'replace', path: '/driver', value: 'ipmi' },
    ]),
  );
  return out;
}

async function main(): Promise<void> {
  const ironic = await startRealIronic();
  try {
    const uuids = new Map<string, string>();
    const ask = asker(ironic, uuids);
    await mkdir(FIXTURE_DIR, { recursive: true });
    const write = (name: string, observations: Observation[]) =>
      writeFile(join(FIXTURE_DIR, name), `${JSON.stringify(observations, null, 2)}\n`);
    await write('drivers.json', await captureDrivers(ask));
    await write('fake-hardware-node.json', await captureNode(ask, uuids));
  } finally {
    await ironic.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
