import type { ServerContext } from '../transports/context.js';
import { errors } from '../model/errors.js';
import type { TemplatedApp, WebSocket } from '../transports/http/uws.js';
import { beginUpgrade } from '../transports/http/ws-upgrade.js';
import type { Added, CacheEntry } from '../store/message-cache.js';
import type { PeerStore } from '../store/peer-store.js';
import { forwardedEntries, isForward, parseFrame, type Reply } from './frames.js';
import { secretHeader, secretMatches } from './secret.js';

/** Where a node serves its announcements to the peers that link to it. */
export const announcePath = '/v1/cluster/ws';

/**
 * Bytes a peer may leave unread before its link is closed (1008): it then reads what it
 * missed from the database, as a node without peers does, and links again.
 */
const unreadLimit = 64 * 1024 * 1024;

/** The largest frame a peer may send: a forwarded add of a full batch of large messages. */
const maxForwardBytes = 64 * 1024 * 1024;

/** A linked peer's socket state; uWS copies it, so it holds, never is, the state. */
interface LinkData {
  /** Closed: the answers of adds still committing go nowhere. */
  state: { closed: boolean };
}

/** Commits a peer's add to a log this node leads (MergedAdds). */
/** Commits a peer's forwarded add; `source` is the peer's link, the same for all its adds. */
export type CommitForwarded = (entries: readonly CacheEntry[], source: object) => Promise<Added>;

export interface AnnounceSocket {
  /** Closes every peer's link (1001, at shutdown). */
  close(): void;
}

/**
 * Serves `GET /v1/cluster/ws` on `app`: a peer that sends the cluster secret gets every batch
 * this node commits from then on, one text frame `{"log":n,"batch":{…}}` each, encoded once
 * for all peers. Without the secret the upgrade is refused with ntfy's 401 before anything
 * is held; a peer sends only the adds it forwards to this node (`commit`). `linked` is called when
 * a peer's link opens: a node that just joined links to the others at once, and they
 * should link back as soon (PeerLinks.refresh) rather than at their next refresh.
 */
export function registerAnnounceSocket(app: TemplatedApp, ctx: ServerContext, peers: PeerStore, secret: string, commit: CommitForwarded, linked: () => void): AnnounceSocket {
  const links = new Set<WebSocket<LinkData>>();
  const stop = peers.onCommit((log, batch) => {
    if (links.size === 0) return;
    const frame = JSON.stringify({ log, batch });
    for (const ws of links) {
      if (ws.getBufferedAmount() > unreadLimit) ws.end(1008, 'not reading');
      else ws.send(frame, false);
    }
  });
  app.ws<LinkData>(announcePath, {
    maxPayloadLength: maxForwardBytes,
    idleTimeout: 60,
    sendPingsAutomatically: true,
    upgrade: (res, req, context) => {
      const upgrade = beginUpgrade(ctx, res, req);
      if (!upgrade) return;
      if (!secretMatches(upgrade.info.headers.get(secretHeader) ?? '', secret)) return upgrade.ex.error(errors.unauthorized);
      res.cork(() => res.upgrade<LinkData>({ state: { closed: false } }, ...upgrade.headers, context));
    },
    open: (ws) => {
      links.add(ws);
      linked();
    },
    message: (ws, data, isBinary) => {
      const forward = parseFrame(Buffer.from(data), isBinary);
      if (!isForward(forward)) return ctx.log.warn({}, 'cluster: a peer sent something that is no forwarded add; ignored');
      const { state } = ws.getUserData();
      const answer = (reply: Reply): void => {
        if (!state.closed) ws.send(JSON.stringify(reply), false);
      };
      const entries = forwardedEntries(forward);
      if (!entries) return answer({ reply: forward.forward, error: 'a forwarded entry holds no message' });
      commit(entries, state).then(
        (added) => answer({ reply: forward.forward, ...added }),
        (err: unknown) => answer({ reply: forward.forward, error: err instanceof Error ? err.message : String(err) }),
      );
    },
    close: (ws) => {
      ws.getUserData().state.closed = true;
      links.delete(ws);
    },
  });
  return {
    close: () => {
      stop();
      for (const ws of [...links]) ws.end(1001, 'server shutting down');
    },
  };
}
