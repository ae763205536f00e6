import { onRefusal, type ServerContext } from '../transports/context.js';
import { errors } from '../model/errors.js';
import { headersTooLarge } from '../transports/http/header-limit.js';
import { snapshot } from '../transports/http/request.js';
import { Exchange } from '../transports/http/respond.js';
import type { TemplatedApp, WebSocket } from '../transports/http/uws.js';
import type { PeerStore } from '../store/peer-store.js';
import { secretHeader, secretMatches } from './secret.js';

/** Where a node serves its announcements to the peers that link to it. */
export const announcePath = '/v1/cluster/ws';

/**
 * Bytes a peer may leave unread before its link is closed (1008): it then reads what it
 * missed from the database, as a node without peers does, and links again.
 */
const unreadLimit = 64 * 1024 * 1024;

export interface AnnounceSocket {
  /** Closes every peer's link (1001, at shutdown). */
  close(): void;
}

/**
 * Serves `GET /v1/cluster/ws` on `app`: a peer that sends the cluster secret gets every batch
 * this node commits from then on, one text frame `{"log":n,"batch":{…}}` each, encoded once
 * for all peers. Without the secret the upgrade is refused with ntfy's 401 before anything
 * is held; a peer sends nothing (frames over 1 KB close the link).
 */
export function registerAnnounceSocket(app: TemplatedApp, ctx: ServerContext, peers: PeerStore, secret: string): AnnounceSocket {
  const links = new Set<WebSocket<object>>();
  const stop = peers.onCommit((log, batch) => {
    if (links.size === 0) return;
    const frame = JSON.stringify({ log, batch });
    for (const ws of links) {
      if (ws.getBufferedAmount() > unreadLimit) ws.end(1008, 'not reading');
      else ws.send(frame, false);
    }
  });
  app.ws<object>(announcePath, {
    maxPayloadLength: 1024,
    idleTimeout: 60,
    sendPingsAutomatically: true,
    upgrade: (res, req, context) => {
      const info = snapshot(req, res);
      const ex = new Exchange(res, onRefusal(ctx, info));
      if (headersTooLarge(info, ctx.config.messageSizeLimit)) return ex.error(errors.headerFieldsTooLarge);
      if (!secretMatches(info.headers.get(secretHeader) ?? '', secret)) return ex.error(errors.unauthorized);
      const upgrade = ['sec-websocket-key', 'sec-websocket-protocol', 'sec-websocket-extensions'].map((h) => req.getHeader(h)) as [string, string, string];
      res.cork(() => res.upgrade({}, ...upgrade, context));
    },
    open: (ws) => void links.add(ws),
    close: (ws) => void links.delete(ws),
  });
  return {
    close: () => {
      stop();
      for (const ws of [...links]) ws.end(1001, 'server shutting down');
    },
  };
}
