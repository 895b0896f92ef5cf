/** The caps at start: the release this code is must carry the code's service version. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PLACEMENT_SERVICE } from '../../src/placement/service.ts';
import { InvalidReleaseMappingError } from '../../src/releases/index.ts';
import { resolveCapsInForce } from '../../src/service/index.ts';

describe('the release this code is', () => {
  test('must carry the code’s service version, or no process starts', () => {
    const { '2026.1': _, ...others } = PLACEMENT_SERVICE.releases;
    const broken = {
      ...PLACEMENT_SERVICE,
      releases: { ...others, '2026.1': { api: '1.39', objects: {} } },
    };
    assert.throws(
      () => resolveCapsInForce(broken, {}),
      (error: unknown) =>
        error instanceof InvalidReleaseMappingError &&
        error.message ===
          "the release mapping of service placement is invalid: 2026.1: this code's release must have serviceVersion 1 (the service version its processes report), not none",
    );
    assert.equal(resolveCapsInForce(PLACEMENT_SERVICE, {}).source.kind, 'latest');
  });
});
