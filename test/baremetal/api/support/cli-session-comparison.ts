/**
 * A `baremetal` client session run against the real Ironic and Baton's listening API side by
 * side: each command must exit the same and print the same once what differs between runs is
 * set aside (support/cli-side.ts). The test files differ only in the session and how each
 * side is configured.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ListeningApi } from '../../../../src/baremetal/api/server.ts';
import {
  type CliResult,
  type RealIronic,
  realIronicMissing,
  startRealIronic,
} from '../../../support/real-ironic.ts';
import { type BatonApi, listenOnLoopback, startBatonApi } from './baton-api.ts';
import { CliSide, type Command } from './cli-side.ts';

export interface CliSessionSetup {
  /** Options of the real Ironic (startRealIronic's). */
  readonly real: Parameters<typeof startRealIronic>[0];
  /** Options of Baton's API and conductor (startBatonApi's). */
  readonly baton: Parameters<typeof startBatonApi>[0];
  /** The microversion maximum Baton's listening API serves (as the caps give it). */
  readonly apiMax: string | undefined;
  readonly session: readonly Command[];
}

/** Registers the comparison as a suite; without the real Ironic it is skipped (under CI=true it throws). */
export function describeCliSessionComparison(title: string, setup: CliSessionSetup): void {
  const missing = realIronicMissing();
  if (missing && process.env.CI === 'true') {
    throw new Error(`${missing} (CI=true: the real Ironic must run)`);
  }
  describe(title, { skip: missing }, () => {
    let real: RealIronic;
    let baton: BatonApi;
    let listening: ListeningApi;
    let sides: { real: CliSide; baton: CliSide };

    before(async () => {
      [real, baton] = await Promise.all([startRealIronic(setup.real), startBatonApi(setup.baton)]);
      listening = await listenOnLoopback(baton, setup.apiMax);
      sides = { real: new CliSide(real.url), baton: new CliSide(listening.url) };
    });

    after(async () => {
      sides?.real.close();
      sides?.baton.close();
      await listening?.drain();
      await Promise.all([real?.stop(), baton?.close()]);
    });

    it('prints the same for every command', async () => {
      const shown = (side: CliSide, result: CliResult) => ({
        code: result.code,
        stdout: side.normalize(result.stdout),
        stderr: side.normalize(result.stderr),
      });
      for (const [index, command] of setup.session.entries()) {
        const [theirs, ours] = await Promise.all([
          sides.real.run(command),
          sides.baton.run(command),
        ]);
        assert.deepEqual(
          shown(sides.baton, ours),
          shown(sides.real, theirs),
          `command ${index + 1}: baremetal ${command.args.join(' ')}`,
        );
      }
    });
  });
}
