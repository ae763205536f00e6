import type { Config } from '../config/schema.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Added, CacheEntry, MessageCache } from '../store/message-cache.js';
import type { PeerStore } from '../store/peer-store.js';
import type { ServerContext } from '../transports/context.js';
import type { TemplatedApp } from '../transports/http/uws.js';
import { registerAnnounceSocket, type AnnounceSocket } from './announce-socket.js';
import { MergedAdds } from './merged-adds.js';
import { PeerLinks } from './peer-links.js';

/** How often a node says it is there and looks for peers come and gone (the registry forgets a node after 30 s). */
const refreshMs = 5000;

/**
 * The nodes' cooperation on a MongoDB store (cluster-secret): every node serves its commits
 * to its peers (announce-socket.ts) and links to every other node for theirs
 * (peer-links.ts), so its tails need not read them back; and each log has one leader among
 * the linked nodes, to which the others forward their adds, merged there into its commits
 * (merged-adds.ts), so the nodes do not race each other for the log's positions.
 */
export class Peering {
  private readonly merged: MergedAdds;
  private readonly links: PeerLinks;
  private socket: AnnounceSocket | undefined;

  /** Undefined when the store has no peers to announce to or no secret is set. */
  static of(config: Config, cache: MessageCache, peers: PeerStore | undefined, log: ServerContext['log'], metrics: Metrics | undefined): Peering | undefined {
    if (!peers || !config.clusterSecret || !cache.logOf) return undefined;
    return new Peering(config, cache, cache.logOf.bind(cache), peers, log, metrics);
  }

  private constructor(
    private readonly config: Config,
    private readonly cache: MessageCache,
    private readonly logOf: (topic: string) => number,
    private readonly peers: PeerStore,
    log: ServerContext['log'],
    metrics: Metrics | undefined,
  ) {
    this.merged = new MergedAdds((entries) => cache.add(entries));
    this.links = new PeerLinks(peers, { secret: config.clusterSecret, refreshMs, log, observer: metrics });
  }

  /**
   * Commits a publish pipeline's entries (Publisher's `add`): through the log's leader
   * when it is a peer, else merged with the adds forwarded here. Entries of several logs
   * (not from the pipeline's lanes) commit here as they are.
   */
  add(entries: readonly CacheEntry[]): Promise<Added> {
    const log = this.logOfAll(entries);
    const leader = log === undefined ? undefined : this.links.leaderOf(log);
    return leader === undefined ? this.commitHere(entries, this, log) : this.links.forward(leader, entries);
  }

  /** The log of every entry's topic; undefined when they are of several. */
  private logOfAll(entries: readonly CacheEntry[]): number | undefined {
    const log = this.logOf((entries[0] as CacheEntry).message.topic);
    return entries.every((e) => this.logOf(e.message.topic) === log) ? log : undefined;
  }

  /**
   * Commits on this node: merged with the other adds of `log`, or as they are when they
   * span several (undefined). `source`: this node (its pipeline) or the peer's link.
   */
  private commitHere(entries: readonly CacheEntry[], source: object, log = this.logOfAll(entries)): Promise<Added> {
    return log === undefined ? this.cache.add(entries) : this.merged.commit(log, entries, source);
  }

  /** Serves this node's side of the links on `app` (before it listens). */
  register(app: TemplatedApp, ctx: ServerContext): void {
    this.socket = registerAnnounceSocket(app, ctx, this.peers, this.config.clusterSecret, (entries, source) => this.commitHere(entries, source), () => void this.links.refresh());
  }

  /** Says where this node is and links to the others, once it listens on `port`. */
  start(port: number): Promise<void> {
    return this.links.start(this.config.clusterAdvertiseUrl || listenUrl(this.config, port));
  }

  /** Ends every link, in both directions, and leaves the registry. */
  async stop(): Promise<void> {
    await this.links.stop();
    this.socket?.close();
  }
}

/** The URL of this node's own listener (the config refuses a wildcard host without cluster-advertise-url). */
function listenUrl(config: Config, port: number): string {
  const { host } = config.listenHttp;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
