import type { TopicHub } from '../../streams/hub.js';
import type { TemplatedApp, WebSocket } from '../http/uws.js';
import { FanoutGroups } from './fanout-groups.js';
import { formats } from './framing.js';

/**
 * Unfiltered WebSocket subscribers ride uWS's own pub/sub: one `app.publish` per message
 * and topic, and uWS fans the shared frame out to every socket in one batched pass per
 * loop turn (DESIGN.md: 1.05 M deliveries/s at 10,000 sockets).
 *
 * uWS does not report a socket that stops reading, so after each turn that broadcast on
 * a topic its sockets are checked with `isSlow` (one native call per socket per turn,
 * not per message) and the slow ones handed to `onSlow`. Sockets of a topic whose hub
 * stream ended (TopicHub.interrupt) are handed to `onInterrupted`.
 */
export class WsBroadcast<S> {
  private readonly groups: FanoutGroups<WebSocket<S>>;
  private readonly dirty = new Set<ReadonlySet<WebSocket<S>>>();
  private checkScheduled = false;

  constructor(
    app: TemplatedApp,
    hub: TopicHub,
    private readonly isSlow: (ws: WebSocket<S>) => boolean,
    private readonly onSlow: (ws: WebSocket<S>) => void,
    onInterrupted: (ws: WebSocket<S>) => void,
  ) {
    this.groups = new FanoutGroups(
      hub,
      (topic, members, event) => {
        app.publish(topic, event.frame(formats.ws), false);
        this.dirty.add(members);
        if (!this.checkScheduled) {
          this.checkScheduled = true;
          setImmediate(this.check);
        }
      },
      (members) => {
        for (const ws of members) onInterrupted(ws);
      },
    );
  }

  join(ws: WebSocket<S>, topics: readonly string[]): void {
    for (const topic of topics) ws.subscribe(topic);
    this.groups.join(ws, topics);
  }

  /** Call from the close handler, where the socket may no longer be used. */
  leave(ws: WebSocket<S>, topics: readonly string[]): void {
    this.groups.leave(ws, topics);
  }

  private readonly check = (): void => {
    this.checkScheduled = false;
    const slow = new Set<WebSocket<S>>();
    for (const members of this.dirty) for (const ws of members) if (this.isSlow(ws)) slow.add(ws);
    this.dirty.clear();
    for (const ws of slow) this.onSlow(ws);
  };
}
