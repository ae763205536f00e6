import { map, share, type Subscription } from 'rxjs';
import type { Metrics } from '../metrics/metrics.js';
import type { ServerContext } from '../transports/context.js';
import { Gate, runGuards } from '../transports/guards/guard.js';
import type { TemplatedApp, WebSocket } from '../transports/http/uws.js';
import { beginUpgrade } from '../transports/http/ws-upgrade.js';
import { watcherGuards } from './admission.js';
import { encodeFrame } from './frame.js';
import { liveFrames, type FrameOptions } from './frames.js';
import { frameSources } from './sources.js';

/** The live dashboard's feed: a WebSocket that receives one JSON frame (frame.ts) a second. */
export const dashboardFeedPath = '/v1/dashboard/ws';

/** A watcher's user data; uWS copies it into an object of its own, so it holds, never is, the state. */
interface WatcherData {
  watching?: Subscription;
}

export interface DashboardFeed {
  /** Closes every watcher (1001, at shutdown). */
  close(): void;
}

/**
 * Serves the feed on `app`, guarded by admission.ts. Every watcher gets the same encoded
 * frame; one that lets more than subscriber-buffer-limit bytes queue up is closed (1008),
 * since a dashboard that stopped reading is better reconnected than fed stale frames.
 */
export function registerDashboardFeed(app: TemplatedApp, ctx: ServerContext, metrics: Metrics, options?: FrameOptions): DashboardFeed {
  const topicNames = ctx.access !== undefined;
  const frames$ = liveFrames(frameSources(ctx, metrics), options).pipe(
    map((frame) => encodeFrame(frame, topicNames)),
    share(),
  );
  const limit = ctx.config.subscriberBufferLimit;
  const watchers = new Set<WebSocket<WatcherData>>();
  app.ws<WatcherData>(dashboardFeedPath, {
    maxPayloadLength: 1024,
    idleTimeout: 60,
    sendPingsAutomatically: true,
    upgrade: (res, req, context) => {
      const begun = beginUpgrade(ctx, res, req);
      if (!begun) return;
      const { info, ex, headers: upgrade } = begun;
      const accept = (): void => {
        if (ex.aborted) return;
        res.cork(() => res.upgrade<WatcherData>({}, ...upgrade, context));
        ctx.metrics?.answered(info.method);
      };
      try {
        const waiting = runGuards(watcherGuards, new Gate(ctx, info, []));
        if (waiting) waiting.then(accept, (err: unknown) => ex.error(err));
        else accept();
      } catch (err) {
        ex.error(err);
      }
    },
    open: (ws) => {
      watchers.add(ws);
      ws.getUserData().watching = frames$.subscribe((text) => {
        if (ws.getBufferedAmount() > limit) ws.end(1008, 'not reading');
        else ws.send(text, false);
      });
    },
    close: (ws) => {
      watchers.delete(ws);
      ws.getUserData().watching?.unsubscribe();
    },
  });
  return {
    close: () => {
      for (const ws of [...watchers]) ws.end(1001, 'server shutting down');
    },
  };
}
