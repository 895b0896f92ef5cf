/**
 * The negotiating client against the real OpenStack Placement 8.0.0 (Debian's python3-placement
 * under uWSGI, noauth2, a scratch PostgreSQL database): the server whose answers (a 401 without
 * version headers before any version handling, a 406 stating its range only in the body) the
 * client must read right. The same cases run against Baton's Placement in
 * client-baton-placement.test.ts. When the real service cannot start, this file fails under
 * CI=true and is skipped with the reason otherwise.
 */
import { after, describe } from 'node:test';
import { freePort } from '../../bench/support/placement-http.ts';
import {
  REAL_PLACEMENT_INSTALL,
  type RealPlacement,
  realPlacementMissing,
  startRealPlacement,
} from '../../bench/support/real-placement.ts';
import { backendAvailable, createScratchDatabase } from '../db/support/backends.ts';
import { placementClientCases } from './fixtures/placement-client-cases.ts';

const inCi = process.env.CI === 'true';

interface Running {
  readonly real: RealPlacement;
  readonly drop: () => Promise<void>;
}

/** The real service on a scratch database, or why it cannot run here. */
async function startReal(): Promise<Running | string> {
  const missing = realPlacementMissing();
  if (missing !== undefined) return `the real Placement cannot run: ${missing}`;
  const unavailable = await backendAvailable('postgresql');
  if (unavailable !== undefined) return `the real Placement needs PostgreSQL: ${unavailable}`;
  const db = await createScratchDatabase('postgresql');
  let failure: unknown;
  // The port is picked free, then bound by uWSGI: another process may take it in between.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      // Two workers: fetch may open a second connection while the first, idle, still holds
      // the only worker of a one-process uWSGI until its 4 s timeout.
      const real = await startRealPlacement(db.url, await freePort(), { processes: 2 });
      return { real, drop: db.drop };
    } catch (error) {
      failure = error;
    }
  }
  await db.drop();
  return `the real Placement did not start: ${(failure as Error).message} (${REAL_PLACEMENT_INSTALL})`;
}

describe('negotiating client against the real Placement 8.0.0', async () => {
  const running = await startReal();
  if (typeof running === 'string') {
    if (inCi) throw new Error(`${running} (CI=true: the real Placement must be tested)`);
    describe(running, { skip: running }, () => {});
    return;
  }
  after(async () => {
    await running.real.stop();
    await running.drop();
  });
  placementClientCases(() => running.real.url);
});
