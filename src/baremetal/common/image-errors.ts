/**
 * The errors of fetching an instance's images, worded as Ironic's `exception.py` words them
 * (errors.ts re-exports them: they cross the RPC wire as themselves).
 */
import { IronicError } from './ironic-error.ts';

/** ImageRefValidationFailed: the href cannot be used (not allowed, not found). */
export class ImageRefValidationFailedError extends IronicError {
  override name = 'ImageRefValidationFailedError';
  constructor(imageHref: string, reason: string) {
    super(`Validation of image href ${imageHref} failed, reason: ${reason}`);
  }
}

/** ImageDownloadFailed: the image was found but could not be put in place. */
export class ImageDownloadFailedError extends IronicError {
  override name = 'ImageDownloadFailedError';
  constructor(imageHref: string, reason: string) {
    super(`Failed to download image ${imageHref}, reason: ${reason}`);
  }
}
