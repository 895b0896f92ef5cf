/**
 * The real Ironic harness on the project's PostgreSQL and MariaDB servers (a scratch
 * database each): it syncs the real schema there, registers its conductor and moves a node
 * to `manageable`. The PostgreSQL run is also pinned to zed, as rolling-upgrade comparisons
 * run it. The SQLite default is covered by real-ironic.test.ts. An unreachable
 * server skips its suite with the reason, except under CI=true (backends.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backendAvailable, createScratchDatabase } from '../db/support/backends.ts';
import { type RealIronic, realIronicMissing, startRealIronic } from '../support/real-ironic.ts';

const HEADERS = { 'Content-Type': 'application/json', 'X-OpenStack-Ironic-API-Version': '1.80' };
const missing = realIronicMissing();
if (missing && process.env.CI === 'true') {
  throw new Error(`${missing} (CI=true: the real Ironic must run)`);
}

for (const backend of ['postgresql', 'mysql'] as const) {
  describe(`the real Ironic harness [${backend}]`, { skip: missing }, async () => {
    const unavailable = await backendAvailable(backend);
    if (unavailable !== undefined) {
      describe(unavailable, { skip: unavailable }, () => {});
      return;
    }
    let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
    let ironic: RealIronic | undefined;

    before(async () => {
      scratch = await createScratchDatabase(backend);
      ironic = await startRealIronic({
        databaseUrl: scratch.url,
        ...(backend === 'postgresql' ? { pinReleaseVersion: 'zed' } : {}),
      });
    });

    after(async () => {
      await ironic?.stop();
      await scratch?.drop();
    });

    it('serves up to 1.82, or 1.80 when pinned to zed', async () => {
      const response = await fetch(`${(ironic as RealIronic).url}/v1`);
      const max = response.headers.get('x-openstack-ironic-api-maximum-version');
      assert.equal(max, backend === 'postgresql' ? '1.80' : '1.82');
    });

    it('keeps its nodes in the server database and moves them through the machine', async () => {
      const { url } = ironic as RealIronic;
      const created = await fetch(`${url}/v1/nodes`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ driver: 'fake-hardware' }),
      });
      assert.equal(created.status, 201);
      const { uuid, conductor } = (await created.json()) as { uuid: string; conductor: string };
      assert.equal(conductor, '127.0.0.1');
      const put = await fetch(`${url}/v1/nodes/${uuid}/states/provision`, {
        method: 'PUT',
        headers: HEADERS,
        body: JSON.stringify({ target: 'manage' }),
      });
      assert.equal(put.status, 202);
      let state = '';
      for (let i = 0; i < 100 && state !== 'manageable'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const shown = await fetch(`${url}/v1/nodes/${uuid}`, { headers: HEADERS });
        state = ((await shown.json()) as { provision_state: string }).provision_state;
      }
      assert.equal(state, 'manageable');
    });
  });
}
