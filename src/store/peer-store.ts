/**
 * The port the nodes of a cluster announce their commits through (cluster/): a node sends
 * each batch it commits to its peers, which hold it for their tails instead of reading it
 * back from the database. A batch is the store's own record, opaque here: it goes out as
 * JSON and comes back through `offer`, which checks its shape.
 */
export interface PeerStore {
  /** Calls `listener` with each batch this node commits, and the index of its log; answers the call that stops it. */
  onCommit(listener: (log: number, batch: object) => void): () => void;
  /** A peer's batch for log `log`, as it arrived; false when it is not one (nothing is held then). */
  offer(log: number, batch: unknown): boolean;
  readonly presence: PeerPresence;
  /** Where the nodes say they are. */
  readonly registry: NodeRegistry;
}

/** Which peers announce their commits to this node right now (cluster/peer-links.ts keeps it). */
export interface PeerPresence {
  /** How many: while none does, the tails wait for no announcement. */
  linked: number;
  /**
   * Every other node in the registry does: a batch any of them commits reaches this node's
   * tails unasked, so a quiet tail stops asking the log's heads whether there is more.
   */
  all: boolean;
}

export interface NodeRegistry {
  /** Says node `id` is reachable at `url`, now. */
  announce(id: string, url: string): Promise<void>;
  /** The other nodes heard from lately. */
  peersOf(id: string): Promise<{ id: string; url: string }[]>;
  /** Node `id` stops. */
  withdraw(id: string): Promise<void>;
}
