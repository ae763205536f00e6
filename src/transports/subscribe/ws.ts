import type { Subscription } from 'rxjs';
import type { Outbound } from '../../model/outbound.js';
import { errors } from '../../model/errors.js';
import { isEmptyFilter } from '../../operators/match-filter.js';
import type { Opened } from '../../streams/subscription.js';
import { onRefusal, recordSlowSubscriber, type ServerContext } from '../context.js';
import { snapshot } from '../http/request.js';
import { Exchange } from '../http/respond.js';
import { admit, billSubscriber, enter } from '../admit.js';
import { topicsOf } from '../routes.js';
import type { TemplatedApp, WebSocket } from '../http/uws.js';
import { formats } from './framing.js';
import { openBilled, replays } from './open.js';
import { parseSubscribe, type SubscribeParams } from './params.js';
import type { Visitor } from '../../visitors/visitors.js';
import { WsBroadcast } from './ws-broadcast.js';

interface Socket {
  topics: string[];
  params: SubscribeParams;
  remote: string;
  /** Holds one of its subscriptions while the socket is open. */
  visitor: Visitor;
  closed: boolean;
  /** Live messages of a filtered subscription, which cannot use uWS's topic broadcast. */
  subscription?: Subscription;
  closeOnShutdown?: () => void;
  /** Unsent bytes of the initial replay, allowed beyond the limit while they drain. */
  backlog: number;
  /** The subscription, when it was opened (and its replay paid for) before the upgrade. */
  opened: Opened | undefined;
}

/** ntfy closes sockets whose pong is this late after its ping (server.go wsPongWait). */
const pongWaitSeconds = 15;
/**
 * uWS's own limit is only a backstop far above ours (one turn's broadcast may pass our
 * limit before the check after it); past it uWS closes the socket rather than skip it.
 */
const backstopBytes = (limit: number): number => Math.max(64 * limit, 16 * 1024 * 1024);

/**
 * GET /{topics}/ws. Errors found before the upgrade are answered as ntfy's JSON error.
 * Without filters a socket joins uWS's topic pub/sub; with filters it gets its own
 * subscription. Either way a socket whose unsent bytes pass subscriber-buffer-limit is
 * closed, counted and logged, never silently skipped.
 */
export function registerWebSocket(app: TemplatedApp, ctx: ServerContext): void {
  const limit = ctx.config.subscriberBufferLimit;
  const broadcast = new WsBroadcast<Socket>(app, ctx.hub, (ws) => slow(ws, limit), (ws) => dropSlow(ws, ctx));
  app.ws<Socket>('/*', {
    maxPayloadLength: 16 * 1024,
    maxBackpressure: backstopBytes(limit),
    closeOnBackpressureLimit: 1, // typed as a number in this build; any non-zero turns it on
    idleTimeout: Math.min(960, Math.ceil(ctx.config.keepaliveIntervalMs / 1000) + pongWaitSeconds),
    sendPingsAutomatically: true,
    upgrade: (res, req, context) => {
      const info = snapshot(req, res);
      const ex = new Exchange(res, onRefusal(ctx, info));
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      try {
        const topics = topicsOf(info.path, 'ws');
        if (!topics) throw errors.notFound;
        const params = parseSubscribe(info);
        const accept = ({ visitor }: { visitor: Visitor }, opened?: Opened): void => {
          if (ex.aborted) return opened?.cancel();
          ctx.topics.admitSubscription(topics);
          visitor.subscribe(); // a poll=1 too, while it runs (as ntfy's handleSubscribeWS)
          const socket: Socket = { topics, params, remote: info.remoteAddress, visitor, closed: false, backlog: 0, opened };
          res.cork(() => res.upgrade(socket, key, protocol, extensions, context));
          ctx.metrics?.answered(info.method);
        };
        // The common upgrade stays synchronous; an auth-file's check, billing UnifiedPush
        // subscribers or paying for a replay (42905 must be an HTTP answer) make it wait.
        if (!ctx.access && !ctx.config.visitorSubscriberRateLimiting && !replays(params)) accept({ visitor: enter(ctx, info) });
        else {
          admit(ctx, info, topics, 'read')
            .then(async (admitted) => {
              await billSubscriber(ctx, topics, admitted);
              const opened = await openBilled(ctx, admitted.visitor, topics, params);
              try {
                accept(admitted, opened);
              } catch (err) {
                opened.cancel();
                throw err;
              }
            })
            .catch((err: unknown) => ex.error(err));
        }
      } catch (err) {
        ex.error(err);
      }
    },
    open: (ws) => {
      void start(ws, ctx, broadcast).catch((err: unknown) => {
        ctx.log.error({ err }, 'websocket subscription failed');
        if (!ws.getUserData().closed) ws.end(1011);
      });
    },
    close: (ws, code) => {
      const socket = ws.getUserData();
      socket.closed = true;
      socket.visitor.unsubscribe();
      socket.subscription?.unsubscribe();
      broadcast.leave(ws, socket.topics);
      if (socket.closeOnShutdown) ctx.connections.delete(socket.closeOnShutdown);
      ctx.log.debug({ format: 'ws', topics: socket.topics.join(','), subscriptions: socket.visitor.subscriptions, code, remote: socket.remote }, 'subscription closed');
    },
  });
}

async function start(ws: WebSocket<Socket>, ctx: ServerContext, broadcast: WsBroadcast<Socket>): Promise<void> {
  const socket = ws.getUserData();
  const { topics, params } = socket;
  const opened = socket.opened ?? (await openBilled(ctx, socket.visitor, topics, params));
  socket.opened = undefined;
  if (socket.closed) return opened.cancel();
  let live = false;
  const send = (event: Outbound): void => {
    if (socket.closed) return;
    ws.send(event.frame(formats.ws), false);
    if (live && slow(ws, ctx.config.subscriberBufferLimit)) dropSlow(ws, ctx);
  };
  if (params.poll) {
    ws.cork(() => opened.events$.subscribe(send));
    ws.end(1000);
    return;
  }
  const close = (): void => {
    if (!socket.closed) ws.end(1001, 'server shutting down');
  };
  ctx.connections.add(close);
  socket.closeOnShutdown = close;
  if (!isEmptyFilter(params.filter)) {
    ws.cork(() => (socket.subscription = opened.events$.subscribe(send)));
  } else {
    // Send the open event, the replay and whatever arrived meanwhile; then hand over to the
    // broadcast in the same synchronous step, so no message falls between the two.
    ws.cork(() => opened.events$.subscribe(send).unsubscribe());
    broadcast.join(ws, topics);
  }
  socket.backlog = ws.getBufferedAmount();
  live = true;
}

/** Over the limit, not counting what is left of the replay (which shrinks as it drains). */
function slow(ws: WebSocket<Socket>, limit: number): boolean {
  const socket = ws.getUserData();
  const buffered = ws.getBufferedAmount();
  socket.backlog = Math.min(socket.backlog, buffered);
  return buffered - socket.backlog > limit;
}

function dropSlow(ws: WebSocket<Socket>, ctx: ServerContext): void {
  const socket = ws.getUserData();
  recordSlowSubscriber(ctx, socket.topics, 'ws', socket.remote);
  socket.closed = true;
  ws.close();
}
