/**
 * Lists and their `next` link, as the real API builds them (controllers/v1/collection.py): a
 * page as long as the limit has a next page, whose link repeats the parameters the handler
 * names (in its order, as Python's `str` writes them, not URL-encoded), then `fields` when
 * some were shown, then `limit` and the last item's marker.
 */
import { buildUrl } from './links.ts';

export type NextParameters = ReadonlyArray<readonly [string, unknown]>;

/** Python's str() of a link parameter. */
function linkValue(value: unknown): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null || value === undefined) return 'None';
  return String(value);
}

export interface ListOptions {
  /** The validated limit (`[api] max_limit` when none was asked); 0: never a next link. */
  readonly limit: number;
  /** The resource path of the list, `nodes` or `nodes/detail`. */
  readonly url: string;
  readonly base: string;
  readonly parameters: NextParameters;
  /** The fields shown, repeated in the link (`fields=a,b`). */
  readonly fields?: readonly string[] | undefined;
}

/** `{<name>: items}` and `next` when the page is full. */
export function listBody(
  name: string,
  items: readonly Record<string, unknown>[],
  markers: readonly string[],
  options: ListOptions,
): Record<string, unknown> {
  const body: Record<string, unknown> = { [name]: items };
  const { limit } = options;
  if (items.length > 0 && items.length === limit) {
    const args = options.parameters.map(([key, value]) => `${key}=${linkValue(value)}&`);
    if (options.fields && options.fields.length > 0)
      args.push(`fields=${options.fields.join(',')}&`);
    const marker = markers[markers.length - 1];
    body.next = buildUrl(
      options.base,
      options.url,
      `?${args.join('')}limit=${limit}&marker=${marker}`,
    );
  }
  return body;
}
