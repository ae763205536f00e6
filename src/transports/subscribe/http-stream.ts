import type { Outbound } from '../../model/outbound.js';
import type { Replayed } from '../../model/replayed.js';
import { controlOutbound, type Opened } from '../../streams/subscription.js';
import type { ServerContext } from '../context.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { contentTypes, replayBlock, type StreamFormat } from './framing.js';
import { HttpSink } from './http-sink.js';
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
 * An HTTP streaming response as a subscription's connection: frames queue in an HttpSink,
 * whose buffer limit is the slow-consumer policy; unfiltered streams join ctx.fanout; a
 * keepalive event goes out every keepalive-interval.
 */
class HttpStream implements Connection {
  private readonly sink: HttpSink;
  private keepalive: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: ServerContext,
    readonly format: StreamFormat,
    private readonly ex: Exchange,
    private readonly subscriber: Subscriber,
  ) {
    const sink = new HttpSink(ex, {
      format,
      extraHeaders: truncatedHeader(subscriber.opened?.truncated ?? false),
      flusher: ctx.flusher,
      bufferLimit: ctx.config.subscriberBufferLimit,
      onOverflow: () => subscriber.dropped(),
    });
    this.sink = sink;
    ex.onAbort(() => subscriber.close());
  }

  send(event: Outbound): void {
    this.sink.push(event);
  }

  /** The sink writes once per turn anyway. */
  batch(work: () => void): void {
    work();
  }

  replay(replay: Replayed): void {
    this.sink.pushFrame(replayBlock(this.format, replay));
  }

  /** poll=1: one response holding the cached messages. */
  poll(opened: Opened): void {
    this.ex.send(200, replayBlock(this.format, opened.replay), contentTypes[this.format], truncatedHeader(opened.truncated));
  }

  join(topics: readonly string[]): void {
    this.ctx.fanout.join(this.sink, topics);
  }

  leave(topics: readonly string[]): void {
    this.ctx.fanout.leave(this.sink, topics);
  }

  live(): void {
    const { sink, subscriber } = this;
    sink.arm();
    // A timer, not RxJS's interval: its scheduled action and subscribers cost each idle stream ~0.5 KB more.
    this.keepalive = setInterval(() => sink.push(controlOutbound('keepalive', subscriber.topics)), this.ctx.config.keepaliveIntervalMs);
  }

  end(): void {
    this.subscriber.close();
    this.sink.end();
  }

  closed(): void {
    clearInterval(this.keepalive);
  }
}

/** A replay cut at replayLimitBytes says so, as Tocsin's clients may want to know. */
function truncatedHeader(truncated: boolean): readonly (readonly [string, string])[] {
  return truncated ? [['X-Messages-Truncated', '1']] : [];
}
