import type { Outbound } from '../../model/outbound.js';
import type { Replayed } from '../../model/replayed.js';
import { controlOutbound, type Opened } from '../../streams/subscription.js';
import type { ServerContext } from '../context.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { contentTypes, replayBlock, type StreamFormat } from './framing.js';
import { HttpSink } from './http-sink.js';
import type { KeepaliveSlot } from './keepalives.js';
import { Subscriber, type Admission, type Connection, type SubscribeGuards } from './subscriber.js';

/** GET /{topics}/json|sse|raw: a long-lived stream, or with poll=1 the cached messages at once. */
export async function handleStream(ctx: ServerContext, format: StreamFormat, guards: SubscribeGuards, ex: Exchange, req: RequestInfo, topics: string[]): Promise<void> {
  const admission: Admission = {
    get gone() {
      return ex.aborted;
    },
    // Until the stream's head is written every refusal is an HTTP answer.
    opensBeforeAccept: () => true,
    accept: (subscriber) => subscriber.start(new HttpStream(ctx, format, ex, subscriber)),
  };
  await new Subscriber(ctx, admission, req, topics, guards).admit();
}

/**
 * An HTTP streaming response as a subscription's connection: it is the HttpSink its frames
 * queue in, whose buffer limit is the slow-consumer policy; unfiltered streams join
 * ctx.fanout; a keepalive event goes out every keepalive-interval (ctx.keepalives).
 */
class HttpStream extends HttpSink implements Connection, KeepaliveSlot {
  keepaliveDue: number | undefined;
  keepalivePrev: KeepaliveSlot | undefined;
  keepaliveNext: KeepaliveSlot | undefined;

  constructor(
    private readonly ctx: ServerContext,
    format: StreamFormat,
    ex: Exchange,
    private readonly subscriber: Subscriber,
  ) {
    super(ex, format, ctx.flusher, ctx.config.subscriberBufferLimit, truncatedHeader(subscriber.opened?.truncated ?? false));
    ex.onAbort(() => subscriber.close());
  }

  protected overflowed(): void {
    this.subscriber.dropped();
  }

  send(event: Outbound): void {
    this.push(event);
  }

  /** The sink writes once per turn anyway. */
  batch(work: () => void): void {
    work();
  }

  replay(replay: Replayed): void {
    this.pushFrame(replayBlock(this.format, replay));
  }

  /** poll=1: one response holding the cached messages, after the replay_gap events. */
  poll(opened: Opened): void {
    const block = replayBlock(this.format, opened.replay);
    const body = opened.gaps.length === 0 ? block : Buffer.concat([...opened.gaps.map((gap) => gap.frame(this.wireFormat)), block]);
    this.ex.send(200, body, contentTypes[this.format], truncatedHeader(opened.truncated));
  }

  join(topics: readonly string[]): void {
    this.ctx.fanout.join(this, topics);
  }

  leave(topics: readonly string[]): void {
    this.ctx.fanout.leave(this, topics);
  }

  live(): void {
    this.arm();
    this.ctx.keepalives.add(this);
  }

  keepalive(): void {
    this.push(controlOutbound('keepalive', this.subscriber.topics));
  }

  override end(): void {
    this.subscriber.close();
    super.end();
  }

  /**
   * A clean end, which ntfy's clients reconnect on: Android's JsonConnection at once, with
   * `since=` the last message it got; `ntfy subscribe` after 10 s, without `since=` (ntfy's
   * client/client.go does not pass one yet), so it misses what came meanwhile.
   */
  interrupt(): void {
    this.end();
  }

  closed(): void {
    this.ctx.keepalives.remove(this);
  }
}

type Headers = readonly (readonly [string, string])[];
const truncated: Headers = [['X-Messages-Truncated', '1']];
const none: Headers = [];

/** A replay cut at replayLimitBytes says so, as Tocsin's clients may want to know; the lists are shared, as each open stream holds one. */
function truncatedHeader(cut: boolean): Headers {
  return cut ? truncated : none;
}
