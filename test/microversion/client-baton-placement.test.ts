/**
 * The negotiating client against Baton's own Placement service (started in-process on port 0,
 * on a scratch SQLite database): the same cases as against the real Placement 8.0.0
 * (client-real-placement.test.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { defaultPlacementConfig } from '../../src/placement/config.ts';
import {
  type PlacementServer,
  placementPlanOf,
  startPlacementApi,
} from '../../src/placement/service.ts';
import { placementClientCases } from './fixtures/placement-client-cases.ts';

describe("negotiating client against Baton's Placement", () => {
  let dir: string | undefined;
  let server: PlacementServer | undefined;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'client-placement-'));
    const config = defaultPlacementConfig(`sqlite:${join(dir, 'placement.sqlite')}`);
    server = await startPlacementApi(placementPlanOf({ ...config, port: 0 }));
  });
  after(async () => {
    await server?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  placementClientCases(() => {
    if (server === undefined) throw new Error('the server has not started');
    return server.url;
  });
});
