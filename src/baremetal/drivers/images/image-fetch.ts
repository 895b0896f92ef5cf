/**
 * Putting an instance's kernel or ramdisk where the boot loader reads it (the real
 * FileImageService.download through the TFTP image cache, without the cache): the file a
 * file:// href names is hard-linked to the destination, or copied when it cannot be (another
 * file system). Only file:// hrefs are fetched: Glance and HTTP images are not built.
 */
import { constants } from 'node:fs';
import { copyFile, link, realpath, stat, unlink } from 'node:fs/promises';
import { ImageDownloadFailedError, ImageRefValidationFailedError } from '../../common/errors.ts';
import { allowedFilePath, isFileHref } from './file-image-href.ts';

/** validate_href: allowed and an existing regular file; the file's path. */
export async function validateImageHref(
  href: string,
  allowedPaths: readonly string[],
): Promise<string> {
  if (!isFileHref(href)) {
    throw new ImageRefValidationFailedError(href, 'Baton fetches only file:// images.');
  }
  const path = allowedFilePath(href, allowedPaths);
  const found = await stat(path).catch(() => undefined);
  if (found === undefined || !found.isFile()) {
    throw new ImageRefValidationFailedError(href, 'Specified image file not found.');
  }
  return path;
}

/** Fetches the image to `destination` (replacing what is there). */
export async function fetchImage(
  href: string,
  destination: string,
  allowedPaths: readonly string[],
): Promise<void> {
  const source = await validateImageHref(href, allowedPaths);
  try {
    await unlink(destination).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    try {
      await link(await realpath(source), destination);
    } catch {
      await copyFile(source, destination, constants.COPYFILE_EXCL);
    }
  } catch (error) {
    throw new ImageDownloadFailedError(href, (error as Error).message);
  }
}
