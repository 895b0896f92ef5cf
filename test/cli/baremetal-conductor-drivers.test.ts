/**
 * `baton baremetal conductor` with hardware it cannot serve: it stops before serving, with the
 * real message in one line and status 1, as the real ironic-conductor exits 1 when an enabled
 * hardware type cannot be loaded.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../src/cli/main.ts';

async function baton(...argv: string[]) {
  let err = '';
  const status = await runCli(argv, { out: () => {}, err: (text) => (err += text) });
  return { status, err };
}

describe('baton baremetal conductor with hardware it cannot serve', () => {
  it('exits 1 with the real refusal in one line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baremetal-conductor-'));
    try {
      const common = ['baremetal', 'conductor', '--data-dir', dir, '--rpc-transport', 'local'];
      const notEnabled = await baton(...common, '--default-console-interface', 'fake');
      assert.equal(notEnabled.status, 1);
      assert.equal(
        notEnabled.err,
        "baton: error: Could not find the following interface in the 'ironic.hardware.interfaces.console' entrypoint: fake. Valid interfaces are ['no-console'].\n",
      );
      const unknown = await baton(...common, '--enabled-boot-interfaces', 'ipxe');
      assert.equal(unknown.status, 64, 'an implementation Baton does not have is a bad flag');
      assert.equal(
        unknown.err,
        "baton: error: --enabled-boot-interfaces: 'ipxe' is not an available boot interface\n",
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
