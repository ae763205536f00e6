import type { Collection, Db } from 'mongodb';
import { collection } from './concerns.js';
import type { NodeRegistry } from '../peer-store.js';

interface NodeEntry {
  /** The node: a random name it takes at start. */
  _id: string;
  /** Where the other nodes reach it (cluster-advertise-url). */
  url: string;
  /** When it last said it is there (ms since the epoch). */
  t: number;
}

/** A node that said nothing for this long is no peer any more (it stopped, or lost the database). */
export const peerExpiryMs = 30_000;

/**
 * The nodes of a cluster, as each says where the others reach it: one small document per
 * node in `cluster_nodes`, rewritten every few seconds (cluster/peer-links.ts) and removed
 * when it stops. Only what the database holds is trusted here: a node that can write it can
 * already write the log.
 */
export class PeerRegistry implements NodeRegistry {
  private constructor(private readonly nodes: Collection<NodeEntry>) {}

  static open(db: Db): PeerRegistry {
    return new PeerRegistry(collection<NodeEntry>(db, 'cluster_nodes'));
  }

  /** Says node `id` is reachable at `url`, now. */
  async announce(id: string, url: string): Promise<void> {
    await this.nodes.replaceOne({ _id: id }, { url, t: Date.now() }, { upsert: true });
  }

  /** The other nodes heard from within `peerExpiryMs`: their ids and URLs. */
  async peersOf(id: string): Promise<{ id: string; url: string }[]> {
    const since = Date.now() - peerExpiryMs;
    const all = await this.nodes.find().toArray();
    return all.filter((n) => n._id !== id && n.t >= since).map((n) => ({ id: n._id, url: n.url }));
  }

  /** Node `id` stops: the others drop their link at their next look. */
  async withdraw(id: string): Promise<void> {
    await this.nodes.deleteOne({ _id: id });
  }
}
