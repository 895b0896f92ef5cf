/** Which recorded release a rehearsal starts from; the recorded files themselves parse. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readReleaseFiles } from '../../src/rehearsal/previous-release.ts';
import {
  chooseRelease,
  parseReleaseFile,
  ReleaseFileError,
} from '../../src/rehearsal/release-files.ts';

const file = (name: string, api: string, aliases: string[] = []) =>
  parseReleaseFile(
    JSON.stringify({
      service: 'baremetal',
      name,
      aliases,
      commit: 'a'.repeat(40),
      api,
      rpc: '1.0',
    }),
    `${name}.json`,
  );

describe('release files', () => {
  it('picks the newest by API version, or the one named by name or alias', () => {
    const files = [file('zed', '1.80', ['21.1']), file('antelope', '1.82'), file('yoga', '1.78')];
    assert.equal(chooseRelease(files, 'baremetal').name, 'antelope');
    assert.equal(chooseRelease(files, 'baremetal', '21.1').name, 'zed');
    assert.throws(
      () => chooseRelease(files, 'baremetal', 'wallaby'),
      (error: Error) =>
        error instanceof ReleaseFileError &&
        /recorded: zed\/21\.1, antelope, yoga/.test(error.message),
    );
    assert.throws(() => chooseRelease(files, 'placement'), ReleaseFileError);
  });

  it('refuses a file without a full commit id', () => {
    assert.throws(
      () =>
        parseReleaseFile(
          '{"service":"baremetal","name":"x","commit":"bef0601","api":"1.80","rpc":"1.0"}',
          'x.json',
        ),
      /full 40-digit commit id/,
    );
  });

  it("reads this repository's recorded releases", async () => {
    const files = await readReleaseFiles(join(import.meta.dirname, '../..'));
    const zed = chooseRelease(files, 'baremetal', 'zed');
    assert.equal(zed.api, '1.80');
  });
});
