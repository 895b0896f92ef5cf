/**
 * Which microversions this API serves now. Behind one balancer every API must serve the same
 * highest version, or a client would see `latest` change from one request to the next. So an
 * unpinned API of release 2 beside a pinned one serves release 1's maximum, and both rise
 * together once the last pinned one is gone: the maximum follows the live rows of the
 * services table (each API writes its pin there), read again every second.
 */
import { type Database, listServices } from 'baton/db';
import { VersionNegotiator } from 'baton/microversion';
import { capsInForce, poolApiMax } from 'baton/releases';
import { API_BINARY, API_MIN, CODE, RELEASES } from './releases.ts';

function negotiator(max: string): VersionNegotiator {
  return new VersionNegotiator({
    serviceType: 'leases',
    min: API_MIN,
    max: CODE.api,
    pinnedMax: max,
    headers: {
      mode: 'legacy',
      legacyName: 'X-Leases-API-Version',
      minimumName: 'X-Leases-API-Minimum-Version',
      maximumName: 'X-Leases-API-Maximum-Version',
    },
    malformedStatus: 406,
    formatError: (report) => ({ error: report.detail }),
  });
}

/** The negotiator for the pool's maximum now, kept current until `stop`. */
export async function followPool(db: Database, pin: string | undefined) {
  const own = capsInForce(RELEASES, pin);
  const byMax = new Map<string, VersionNegotiator>();
  const read = async () => {
    const apis = (await listServices(db)).filter((row) => row.live && row.binary === API_BINARY);
    return poolApiMax(RELEASES, own, apis) ?? API_MIN;
  };
  let max = await read();
  const timer = setInterval(() => {
    read().then(
      (next) => {
        max = next;
      },
      () => undefined, // the database was busy: the next read decides
    );
  }, 1000);
  return {
    current(): VersionNegotiator {
      const found = byMax.get(max) ?? negotiator(max);
      byMax.set(max, found);
      return found;
    },
    stop: () => clearInterval(timer),
  };
}
