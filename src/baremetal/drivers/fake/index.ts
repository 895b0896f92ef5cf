/** The fake implementations, one of every kind but network (the real has no fake network). */
import type { AnyImplementation } from '../implementation.ts';
import { fakeBios } from './fake-bios.ts';
import { fakeBoot } from './fake-boot.ts';
import { fakeConsole } from './fake-console.ts';
import { fakeDeploy } from './fake-deploy.ts';
import { fakeInspect } from './fake-inspect.ts';
import { fakeManagement } from './fake-management.ts';
import { fakePower } from './fake-power.ts';
import { fakeRaid } from './fake-raid.ts';
import { fakeRescue } from './fake-rescue.ts';
import { fakeStorage } from './fake-storage.ts';
import { fakeVendor } from './fake-vendor.ts';

export const FAKE_IMPLEMENTATIONS: readonly AnyImplementation[] = [
  fakeBios,
  fakeBoot,
  fakeConsole,
  fakeDeploy,
  fakeInspect,
  fakeManagement,
  fakePower,
  fakeRaid,
  fakeRescue,
  fakeStorage,
  fakeVendor,
];
