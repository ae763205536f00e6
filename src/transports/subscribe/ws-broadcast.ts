import type { Subscription } from 'rxjs';
import type { TopicHub } from '../../streams/hub.js';
import type { TemplatedApp, WebSocket } from '../http/uws.js';
import { formats } from './framing.js';

interface Bridge<S> {
  sockets: Set<WebSocket<S>>;
  subscription: Subscription;
}

/**
 * Bridges hub topics to uWS's own pub/sub for unfiltered WebSocket subscribers: one hub
 * subscription per topic, and uWS fans the shared frame out to every socket in one
 * batched pass per loop turn (DESIGN.md: 1.05 M deliveries/s at 10,000 sockets).
 *
 * uWS does not report a socket that stops reading, so after each turn that broadcast on
 * a topic its sockets are checked with `isSlow` (one native call per socket per turn,
 * not per message) and the slow ones handed to `onSlow`.
 */
export class WsBroadcast<S> {
  private readonly bridges = new Map<string, Bridge<S>>();
  private readonly dirty = new Set<Bridge<S>>();
  private checkScheduled = false;

  constructor(
    private readonly app: TemplatedApp,
    private readonly hub: TopicHub,
    private readonly isSlow: (ws: WebSocket<S>) => boolean,
    private readonly onSlow: (ws: WebSocket<S>) => void,
  ) {}

  join(ws: WebSocket<S>, topics: readonly string[]): void {
    for (const topic of topics) {
      ws.subscribe(topic);
      let bridge = this.bridges.get(topic);
      if (!bridge) {
        bridge = { sockets: new Set(), subscription: this.bridge(topic) };
        this.bridges.set(topic, bridge);
      }
      bridge.sockets.add(ws);
    }
  }

  /** Call from the close handler, where the socket may no longer be used. */
  leave(ws: WebSocket<S>, topics: readonly string[]): void {
    for (const topic of topics) {
      const bridge = this.bridges.get(topic);
      if (!bridge?.sockets.delete(ws) || bridge.sockets.size > 0) continue;
      bridge.subscription.unsubscribe();
      this.bridges.delete(topic);
      this.dirty.delete(bridge);
    }
  }

  private bridge(topic: string): Subscription {
    return this.hub.topic$(topic).subscribe((event) => {
      this.app.publish(topic, event.frame(formats.ws), false);
      this.dirty.add(this.bridges.get(topic) as Bridge<S>);
      if (!this.checkScheduled) {
        this.checkScheduled = true;
        setImmediate(this.check);
      }
    });
  }

  private readonly check = (): void => {
    this.checkScheduled = false;
    const slow = new Set<WebSocket<S>>();
    for (const bridge of this.dirty) for (const ws of bridge.sockets) if (this.isSlow(ws)) slow.add(ws);
    this.dirty.clear();
    for (const ws of slow) this.onSlow(ws);
  };
}
