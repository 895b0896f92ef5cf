/**
 * Which `file://` image hrefs a conductor may read (Ironic's FileImageService.validate_href,
 * with the OSSA-2025-001 check Debian's 21.4.4 carries): the path, made absolute, must be one
 * of `[conductor] file_url_allowed_paths` or under one; an empty list refuses every file://
 * href. Pure: whether the file exists is image-fetch.ts's question.
 */
import { posix } from 'node:path';
import { ImageRefValidationFailedError } from '../../common/errors.ts';

/** The real default of `[conductor] file_url_allowed_paths`. */
export const DEFAULT_FILE_URL_ALLOWED_PATHS: readonly string[] = [
  '/var/lib/ironic',
  '/shared/html',
  '/templates',
  '/opt/cache/files',
  '/vagrant',
];

export function isFileHref(href: string): boolean {
  return href.startsWith('file://');
}

/** The path part of a URL as Python's urlparse gives it (no decoding; the host is dropped). */
function urlPath(href: string): string {
  const rest = href.slice(href.indexOf('://') + 3);
  const slash = rest.indexOf('/');
  const path = slash === -1 ? '' : rest.slice(slash);
  return path.split(/[?#]/)[0] ?? '';
}

/** The file a file:// href names, if the allowed paths hold it; ImageRefValidationFailed else. */
export function allowedFilePath(href: string, allowedPaths: readonly string[]): string {
  const path = urlPath(href);
  const absolute = posix.resolve('/', path);
  const allowed = allowedPaths.some((root) => absolute === root || absolute.startsWith(`${root}/`));
  if (!allowed) {
    throw new ImageRefValidationFailedError(
      href,
      `Security: Path ${path} is not allowed for image source file URLs`,
    );
  }
  return path;
}
