/**
 * The conductor drives fake-hardware nodes as the real Ironic 21.4.4 does: every recorded walk
 * (test/baremetal/support/conductor-walks.ts, recorded from the real service with automated
 * cleaning off and on) is replayed through the ConductorApi against Baton's conductor, and each
 * step's status, message and the node fields the conductor writes are compared with the real
 * ones.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CONDUCTOR_WALKS } from '../support/conductor-walks.ts';
import {
  apiStore,
  conductorApi,
  localTransports,
  newNode,
  settled,
  startTestConductor,
  type TestConductor,
} from './support/conductor-harness.ts';
import { normalised, recordedFields, runStep } from './support/walk-runner.ts';

interface RecordedStep {
  readonly step: string;
  readonly status: number;
  readonly body: unknown;
  readonly node: Record<string, unknown>;
}

const recording = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/real-ironic/conductor-walks.json'), 'utf8'),
) as Record<'automatedCleanOff' | 'automatedCleanOn', Record<string, RecordedStep[]>>;

for (const automatedClean of [false, true]) {
  const run = recording[automatedClean ? 'automatedCleanOn' : 'automatedCleanOff'];
  describe(`walks of a fake-hardware node, automated_clean ${automatedClean}`, () => {
    let dir: string;
    let conductor: TestConductor;
    const { transport } = localTransports();
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'baton-walks-'));
      conductor = await startTestConductor({
        url: `sqlite:${join(dir, 'walks.sqlite')}`,
        transport: transport(),
        settings: { automatedClean },
      });
    });
    after(async () => {
      await conductor.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    for (const walk of CONDUCTOR_WALKS) {
      const recorded = run[walk.name];
      if (recorded === undefined) continue;
      it(walk.name, async () => {
        const store = apiStore(conductor.database);
        const api = conductorApi(store, transport());
        const node = await api.createNode(newNode(walk.create ?? {}));
        const uuid = String(node.get('uuid'));
        for (const [i, step] of walk.steps.entries()) {
          const real = recorded[i] as RecordedStep;
          const answer = await runStep(api, store, uuid, step);
          const where = `${walk.name} / ${step.name}`;
          assert.equal(
            answer.status,
            real.status,
            `${where}: status (${JSON.stringify(answer.body)})`,
          );
          if (real.status >= 400) {
            assert.equal(normalised(answer.body), normalised(real.body), `${where}: message`);
          } else if (typeof real.body === 'object' && real.body !== null && answer.status === 200) {
            if (typeof answer.body === 'object') {
              assert.deepEqual(answer.body, real.body, `${where}: body`);
            }
          }
          if (step.method === 'DELETE' && step.path === '/nodes/{node}' && answer.status === 204)
            return;
          const after = await settled(store, uuid);
          const fields = Object.keys(real.node);
          assert.deepEqual(
            normalised(recordedFields(after, fields)),
            normalised(real.node),
            `${where}: node`,
          );
        }
      });
    }
  });
}
