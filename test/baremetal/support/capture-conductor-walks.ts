/**
 * Records what the real Ironic 21.4.4 conductor does to a fake-hardware node, step by step,
 * for the conductor tests to hold Baton's manager to: each walk is a list of requests (the
 * provision verbs, power, boot device, VIFs, traits, maintenance...) and, after each one
 * settles (no target state left), the node fields the conductor writes.
 *
 *   npx tsx test/baremetal/support/capture-conductor-walks.ts
 *
 * writes test/baremetal/fixtures/real-ironic/conductor-walks.json. Automated cleaning is off
 * in one run and on in another (`provide` goes through `cleaning` either way).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startRealIronic } from '../../support/real-ironic.ts';
import { CONDUCTOR_WALKS, type WalkStep } from './conductor-walks.ts';

const VERSION = '1.80';
const HEADERS = { 'Content-Type': 'application/json', 'X-OpenStack-Ironic-API-Version': VERSION };

/** The node fields the conductor writes, as the API shows them. */
export const RECORDED_FIELDS = [
  'provision_state',
  'target_provision_state',
  'power_state',
  'target_power_state',
  'last_error',
  'maintenance',
  'maintenance_reason',
  'fault',
  'instance_uuid',
  'instance_info',
  'driver_internal_info',
  'clean_step',
  'deploy_step',
  'console_enabled',
  'protected',
  'reservation',
  'traits',
  'retired',
] as const;

/** States the conductor leaves by itself: a step is settled once the node is out of them. */
const BUSY_STATES = [
  'verifying',
  'deploying',
  'cleaning',
  'deleting',
  'inspecting',
  'adopting',
  'rescuing',
  'unrescuing',
];

async function request(url: string, step: WalkStep, uuid: string) {
  const path = step.path.replace('{node}', uuid);
  const response = await fetch(`${url}/v1${path}`, {
    method: step.method,
    headers: HEADERS,
    ...(step.body === undefined ? {} : { body: JSON.stringify(step.body) }),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = text;
  }
  if (body && typeof body === 'object' && 'error_message' in body) {
    body = JSON.parse(String((body as { error_message: string }).error_message)).faultstring;
  }
  return { status: response.status, body };
}

async function settled(url: string, uuid: string) {
  for (let i = 0; i < 400; i++) {
    const response = await fetch(`${url}/v1/nodes/${uuid}`, { headers: HEADERS });
    const node = (await response.json()) as Record<string, unknown>;
    const working = BUSY_STATES.includes(String(node.provision_state));
    if (!working && node.target_power_state === null && node.reservation === null) {
      return Object.fromEntries(RECORDED_FIELDS.map((field) => [field, node[field]]));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`node ${uuid} did not settle`);
}

async function captureRun(automatedClean: boolean) {
  const ironic = await startRealIronic({
    automatedClean,
    config: { conductor: { check_provision_state_interval: '1' } },
  });
  try {
    const walks: Record<string, unknown[]> = {};
    for (const walk of CONDUCTOR_WALKS) {
      if (walk.automatedClean !== undefined && walk.automatedClean !== automatedClean) continue;
      const created = await fetch(`${ironic.url}/v1/nodes`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ driver: 'fake-hardware', ...walk.create }),
      });
      const uuid = ((await created.json()) as { uuid: string }).uuid;
      const steps: unknown[] = [];
      for (const step of walk.steps) {
        const answer = await request(ironic.url, step, uuid);
        steps.push({
          step: step.name,
          status: answer.status,
          body: answer.body,
          node: await settled(ironic.url, uuid),
        });
      }
      walks[walk.name] = steps;
      process.stdout.write(`${walk.name}: ${steps.length} steps\n`);
    }
    return walks;
  } finally {
    await ironic.stop();
  }
}

const result = {
  ironic: '21.4.4',
  version: VERSION,
  automatedCleanOff: await captureRun(false),
  automatedCleanOn: await captureRun(true),
};
const path = join(import.meta.dirname, '../fixtures/real-ironic/conductor-walks.json');
await writeFile(path, `${JSON.stringify(result, null, 1)}\n`);
process.stdout.write(`wrote ${path}\n`);
