/**
 * From 1.15, GET responses (and writes that return a representation) carry `last-modified`
 * (the newest updated_at/created_at of what is shown) and `cache-control: no-cache`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FEATURES } from './features.ts';

/** The newest of some timestamps as a Date; now when none is known (objects made just now). */
export function newestOf(times: Iterable<Date | string | null | undefined>): Date {
  let newest: number | undefined;
  for (const time of times) {
    if (time === null || time === undefined) continue;
    const ms = time instanceof Date ? time.getTime() : Date.parse(toIsoUtc(time));
    if (!Number.isNaN(ms) && (newest === undefined || ms > newest)) newest = ms;
  }
  return newest === undefined ? new Date() : new Date(newest);
}

/** Database text timestamps carry no zone; they are UTC. */
function toIsoUtc(text: string): string {
  return /[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`;
}

export function setCacheHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  lastModified: Date,
): void {
  if (!request.microversion.atLeast(FEATURES.cacheHeaders)) return;
  reply.header('last-modified', lastModified.toUTCString());
  reply.header('cache-control', 'no-cache');
}
