import type { Config } from '../config/schema.js';
import type { Metrics } from '../metrics/metrics.js';
import type { PeerStore } from '../store/peer-store.js';
import type { ServerContext } from '../transports/context.js';
import type { TemplatedApp } from '../transports/http/uws.js';
import { registerAnnounceSocket } from './announce-socket.js';
import { PeerLinks } from './peer-links.js';

/** How often a node says it is there and looks for peers come and gone (the registry forgets a node after 30 s). */
const refreshMs = 5000;

export interface Peering {
  /** Starts the links, once the server listens on `port`. */
  start(port: number): Promise<void>;
  /** Ends every link, in both directions, and leaves the registry. */
  stop(): Promise<void>;
}

/**
 * The nodes' announcements (cluster-secret): every node serves its commits to its peers
 * (announce-socket.ts) and links to every other node for theirs (peer-links.ts). Undefined
 * when the store has no peers to announce to or no secret is set.
 */
export function peeringOf(app: TemplatedApp, ctx: ServerContext, peers: PeerStore | undefined, metrics: Metrics | undefined): Peering | undefined {
  const { config } = ctx;
  if (!peers || !config.clusterSecret) return undefined;
  const socket = registerAnnounceSocket(app, ctx, peers, config.clusterSecret);
  let links: PeerLinks | undefined;
  return {
    start: async (port) => {
      links = new PeerLinks(peers, { ownUrl: config.clusterAdvertiseUrl || listenUrl(config, port), secret: config.clusterSecret, refreshMs, log: ctx.log, observer: metrics });
      await links.start();
    },
    stop: async () => {
      await links?.stop();
      socket.close();
    },
  };
}

/** The URL of this node's own listener (the config refuses a wildcard host without cluster-advertise-url). */
function listenUrl(config: Config, port: number): string {
  const { host } = config.listenHttp;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
