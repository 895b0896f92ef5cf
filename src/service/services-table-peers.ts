/**
 * The http RPC transport's peer directory kept in the services table: a server announces
 * its address as a row (binary = topic, host = server name) and heartbeats it; clients
 * read the live rows that have an address. A service's composition root hands this to
 * the transport, so `src/rpc` never touches the database.
 */
import { type Database, listServices, registerService } from '../db/index.ts';
import type { RpcPeer, RpcPeerDirectory, RpcPeerRegistration } from '../rpc/index.ts';

/** How servicesTablePeers announces. */
export interface ServicesTablePeersOptions {
  /** The service version written with each announced address (default 1). */
  readonly serviceVersion?: number;
  /** Seconds between heartbeats of an announced address (default: the services table's). */
  readonly heartbeatSeconds?: number;
  /** A row seen within this many seconds is live (default: the services table's, 60). */
  readonly liveWithinSeconds?: number;
  /** Told when a heartbeat fails (the next one may succeed). */
  readonly warn?: (message: string) => void;
}

/** An RPC peer directory kept in the services table. */
export function servicesTablePeers(
  db: Database,
  options: ServicesTablePeersOptions = {},
): RpcPeerDirectory {
  const liveness =
    options.liveWithinSeconds === undefined ? {} : { liveWithinSeconds: options.liveWithinSeconds };
  return {
    async findPeers(): Promise<RpcPeer[]> {
      const peers: RpcPeer[] = [];
      for (const row of await listServices(db, liveness)) {
        if (!row.live || row.rpcAddress === undefined) continue;
        peers.push({ topic: row.binary, server: row.host, address: row.rpcAddress });
      }
      return peers;
    },
    async registerSelf(self: RpcPeer): Promise<RpcPeerRegistration> {
      // Claimed, not taken over: a second server of the same name must not steal the
      // address of a live one (it is refused, naming it).
      const registration = await registerService(db, {
        binary: self.topic,
        host: self.server,
        version: options.serviceVersion ?? 1,
        rpcAddress: self.address,
        claim: liveness,
      });
      const stopHeartbeats = registration.startHeartbeats({
        ...(options.heartbeatSeconds === undefined
          ? {}
          : { intervalSeconds: options.heartbeatSeconds }),
        onError: (error) => options.warn?.(`heartbeat failed: ${(error as Error).message}`),
      });
      return {
        async withdraw() {
          stopHeartbeats();
          await registration.deregister();
        },
      };
    },
  };
}
