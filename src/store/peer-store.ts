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
  /** How many peers announce to this node now: while none does, the tails wait for no announcement. */
  readonly presence: { linked: number };
  /** Where the nodes say they are. */
  readonly registry: NodeRegistry;
}

export interface NodeRegistry {
  /** Says node `id` is reachable at `url`, now. */
  announce(id: string, url: string): Promise<void>;
  /** The other nodes heard from lately. */
  peersOf(id: string): Promise<{ id: string; url: string }[]>;
  /** Node `id` stops. */
  withdraw(id: string): Promise<void>;
}
