/**
 * Which file:// hrefs a conductor may read: within `[conductor] file_url_allowed_paths` (the
 * path itself or under it, after `..` is resolved), refused in the real words otherwise; and
 * fetching one links or copies it into place, a missing file refused as the real one words it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ImageRefValidationFailedError } from '../../../../src/baremetal/common/errors.ts';
import {
  allowedFilePath,
  DEFAULT_FILE_URL_ALLOWED_PATHS,
} from '../../../../src/baremetal/drivers/images/file-image-href.ts';
import { fetchImage } from '../../../../src/baremetal/drivers/images/image-fetch.ts';

const refused = (href: string, path: string) => ({
  name: 'ImageRefValidationFailedError',
  message: `Validation of image href ${href} failed, reason: Security: Path ${path} is not allowed for image source file URLs`,
});

describe('file:// image hrefs', () => {
  it('are allowed at or under an allowed path', () => {
    const allowed = ['/srv/images'];
    assert.equal(allowedFilePath('file:///srv/images/vmlinuz', allowed), '/srv/images/vmlinuz');
    assert.equal(allowedFilePath('file:///srv/images', allowed), '/srv/images');
    assert.ok(DEFAULT_FILE_URL_ALLOWED_PATHS.includes('/var/lib/ironic'));
  });

  it('are refused elsewhere, through `..`, beside a prefix, or with no allowed path', () => {
    const allowed = ['/srv/images'];
    for (const [href, path] of [
      ['file:///etc/shadow', '/etc/shadow'],
      ['file:///srv/images/../../etc/shadow', '/srv/images/../../etc/shadow'],
      ['file:///srv/images-other/x', '/srv/images-other/x'],
    ] as const) {
      assert.throws(() => allowedFilePath(href, allowed), refused(href, path));
    }
    assert.throws(() => allowedFilePath('file:///srv/images/x', []), ImageRefValidationFailedError);
  });

  describe('fetched', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-images-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'allowed'));
    writeFileSync(join(dir, 'allowed', 'kernel'), 'bits');

    it('are put in place (an old file replaced)', async () => {
      const destination = join(dir, 'kernel');
      writeFileSync(destination, 'old');
      await fetchImage(`file://${dir}/allowed/kernel`, destination, [join(dir, 'allowed')]);
      assert.equal(readFileSync(destination, 'utf8'), 'bits');
    });

    it('refuse a missing file and an href of another scheme', async () => {
      const href = `file://${dir}/allowed/none`;
      await assert.rejects(fetchImage(href, join(dir, 'x'), [join(dir, 'allowed')]), {
        message: `Validation of image href ${href} failed, reason: Specified image file not found.`,
      });
      await assert.rejects(
        fetchImage('http://example.com/k', join(dir, 'x'), [join(dir, 'allowed')]),
        ImageRefValidationFailedError,
      );
    });
  });
});
