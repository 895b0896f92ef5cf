/**
 * Where the http transport finds the servers of a topic and announces its own: an
 * interface, so that `src/rpc` does not know where the list is kept. A service's
 * composition root supplies it; Baton's services keep it in the services table
 * (`src/service/services-table-peers.ts`).
 */

export interface RpcPeer {
  readonly topic: string;
  /** The server's name within the topic (its host). */
  readonly server: string;
  /** Where it listens: `http://host:port`. */
  readonly address: string;
}

/** An announced server. */
export interface RpcPeerRegistration {
  /** Removes the announcement (a clean stop); peers stop sending here. */
  withdraw(): Promise<void>;
}

/** Where RPC servers announce their address and clients find them. */
export interface RpcPeerDirectory {
  /** The live servers of every topic. */
  findPeers(): Promise<readonly RpcPeer[]>;
  /** Announces a listening server, and keeps the announcement alive until withdrawn. */
  registerSelf(self: RpcPeer): Promise<RpcPeerRegistration>;
}
