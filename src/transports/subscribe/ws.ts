import type { Outbound } from '../../model/outbound.js';
import type { Replayed } from '../../model/replayed.js';
import { errors } from '../../model/errors.js';
import type { Opened } from '../../streams/subscription.js';
import { onRefusal, type ServerContext } from '../context.js';
import { headersTooLarge } from '../http/header-limit.js';
import { snapshot } from '../http/request.js';
import { Exchange } from '../http/respond.js';
import { topicsOf } from '../routes.js';
import type { TemplatedApp, WebSocket } from '../http/uws.js';
import { formats } from './framing.js';
import type { KeepaliveSlot } from './keepalives.js';
import { Subscriber, type Admission, type Connection, type SubscribeGuards } from './subscriber.js';
import { topicList } from './topic-list.js';
import { WsBroadcast } from './ws-broadcast.js';

/**
 * A socket's user data. uWS copies the upgrade's own properties into an object of its
 * own, so it holds the objects rather than being one (a class's methods would be lost).
 */
interface SocketData {
  subscriber: Subscriber;
  /** Made when the socket opens. */
  socket?: WsSocket;
}

/** ntfy closes sockets whose pong is this late after its ping (server.go wsPongWait). */
const pongWaitSeconds = 15;
/**
 * uWS's own limit is only a backstop far above ours (one turn's broadcast may pass our
 * limit before the check after it); past it uWS closes the socket rather than skip it.
 */
const backstopBytes = (limit: number): number => Math.max(64 * limit, 16 * 1024 * 1024);

/**
 * GET /{topics}/ws, admitted through `guards` (routes.ts). Errors found before the upgrade
 * are answered as ntfy's JSON error. Without filters a socket joins uWS's topic pub/sub;
 * with filters it gets its own subscription. Either way a socket whose unsent bytes pass
 * subscriber-buffer-limit is closed, counted and logged, never silently skipped.
 */
export function registerWebSocket(app: TemplatedApp, ctx: ServerContext, guards: SubscribeGuards): void {
  const limit = ctx.config.subscriberBufferLimit;
  const broadcast = new WsBroadcast<SocketData>(
    app,
    ctx.hub,
    (ws) => ws.getUserData().socket?.slow() ?? false,
    (ws) => ws.getUserData().socket?.drop(),
    (ws) => ws.getUserData().socket?.interrupt(),
  );
  app.ws<SocketData>('/*', {
    maxPayloadLength: 16 * 1024,
    maxBackpressure: backstopBytes(limit),
    closeOnBackpressureLimit: 1, // typed as a number in this build; any non-zero turns it on
    // A client that answers no ping within ntfy's pong wait is closed: uWS's idle timer runs
    // from the last frame received (a pong is one), not from what is sent.
    idleTimeout: Math.min(960, Math.ceil(ctx.config.keepaliveIntervalMs / 1000) + pongWaitSeconds),
    // The pings are ours, every keepalive-interval as ntfy's (uWS's own come only once the
    // socket has been idle for most of idleTimeout, ~15 s later than ntfy's).
    sendPingsAutomatically: false,
    upgrade: (res, req, context) => {
      const info = snapshot(req, res);
      const ex = new Exchange(res, onRefusal(ctx, info));
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      if (headersTooLarge(info, ctx.config.messageSizeLimit)) return ex.error(errors.headerFieldsTooLarge);
      const list = topicsOf(info.path, 'ws');
      if (list === undefined) return ex.error(errors.notFound);
      const admission: Admission = {
        get gone() {
          return ex.aborted;
        },
        // A replay is paid for before the upgrade (42905 must be an HTTP answer); otherwise
        // the subscription opens with the socket, and the common upgrade stays synchronous.
        opensBeforeAccept: (params) => params.poll || params.since.kind !== 'none',
        // Never inside res.cork: after an await, cork can close the WebSocket it just made
        // (uWebSockets#1928). Inside the upgrade handler uWS has corked the socket already;
        // after an await the 101 goes out uncorked, a write per header line, which costs a
        // few syscalls and no correctness. tools/patch-uws.mjs takes out the warning this
        // build prints for an upgrade outside a corked callback.
        accept: (subscriber) => {
          res.upgrade({ subscriber }, key, protocol, extensions, context);
          ctx.metrics?.answered(info.method);
        },
      };
      try {
        const topics = topicList(list, ctx.config.subscriptionTopicLimit);
        const waiting = new Subscriber(ctx, admission, info, topics, guards).admit();
        if (waiting) waiting.catch((err: unknown) => ex.error(err));
      } catch (err) {
        ex.error(err);
      }
    },
    open: (ws) => {
      const data = ws.getUserData();
      const socket = new WsSocket(ws, data.subscriber, broadcast, limit);
      data.socket = socket;
      ctx.keepalives.add(socket);
      const failed = (err: unknown): void => {
        ctx.log.error({ err }, 'websocket subscription failed');
        socket.end(1011);
      };
      try {
        const waiting = data.subscriber.start(socket);
        if (waiting) waiting.catch(failed);
      } catch (err) {
        failed(err);
      }
    },
    close: (ws, code) => {
      const { socket, subscriber } = ws.getUserData();
      if (socket) ctx.keepalives.remove(socket); // before anything may ping a closed socket
      subscriber.close({ code });
    },
  });
}

/**
 * A WebSocket as a subscription's connection. Unfiltered, it rides uWS's topic broadcast
 * (ws-broadcast.ts), which checks it once per turn that broadcast to it; filtered, each
 * send checks it. Over the limit — not counting what is left of the replay, which shrinks
 * as it drains — it is dropped.
 */
class WsSocket implements Connection, KeepaliveSlot {
  readonly format = 'ws';
  keepaliveDue: number | undefined;
  keepalivePrev: KeepaliveSlot | undefined;
  keepaliveNext: KeepaliveSlot | undefined;
  private ended = false;
  private checked = false;
  /** Unsent bytes of the initial replay, allowed beyond the limit while they drain. */
  private backlog = 0;

  constructor(
    private readonly ws: WebSocket<SocketData>,
    private readonly subscriber: Subscriber,
    private readonly broadcast: WsBroadcast<SocketData>,
    private readonly limit: number,
  ) {}

  /**
   * ntfy's WebSocket keepalive: an empty ping frame every keepalive-interval (server.go's
   * handleSubscribeWS), not a keepalive event as on the HTTP streams; clients answer it
   * with a pong, which keeps the socket within idleTimeout.
   */
  keepalive(): void {
    if (!this.ended) this.ws.ping();
  }

  send(event: Outbound): void {
    if (this.ended) return;
    this.ws.send(event.frame(formats.ws), false);
    if (this.checked && this.slow()) this.drop();
  }

  batch(work: () => void): void {
    this.ws.cork(work);
  }

  replay(replay: Replayed): void {
    for (const event of replay.events) this.send(event);
  }

  poll(opened: Opened): void {
    this.ws.cork(() => {
      opened.gaps.forEach((gap) => this.send(gap));
      this.replay(opened.replay);
    });
    this.end(1000);
  }

  join(topics: readonly string[]): void {
    this.broadcast.join(this.ws, topics);
  }

  /** From the close handler too, where the socket may no longer be used. */
  leave(topics: readonly string[]): void {
    this.broadcast.leave(this.ws, topics);
  }

  live(): void {
    this.backlog = this.ws.getBufferedAmount();
    this.checked = true;
  }

  /** At shutdown 1001, as ntfy; 1000 after a poll, 1011 when the subscription failed. */
  end(code = 1001): void {
    if (this.ended) return;
    if (code === 1001) this.ws.end(code, 'server shutting down');
    else this.ws.end(code);
  }

  /**
   * Closed without a close frame: the client sees the connection drop (1006, abnormal
   * closure), as when a network fails. That is what ntfy's clients reconnect on, with
   * `since=` the last message they got: the web app (web/src/app/Connection.js) retries
   * only when `event.wasClean` is false and Android's WsConnection only from `onFailure`
   * — neither looks at the code, and both stay disconnected after a clean close
   * handshake, whatever its code (1001, 1011, 1012 alike). What the socket had not sent
   * yet is left out: the reconnect's replay brings it.
   */
  interrupt(): void {
    if (this.ended) return;
    this.ws.close();
  }

  closed(): void {
    this.ended = true;
  }

  slow(): boolean {
    const buffered = this.ws.getBufferedAmount();
    this.backlog = Math.min(this.backlog, buffered);
    return buffered - this.backlog > this.limit;
  }

  drop(): void {
    this.subscriber.dropped();
    this.ws.close();
  }
}
