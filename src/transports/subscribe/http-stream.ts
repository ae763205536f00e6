import { interval, type Subscription } from 'rxjs';
import { isEmptyFilter } from '../../operators/match-filter.js';
import { controlOutbound, type Opened } from '../../streams/subscription.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { admit, billSubscriber } from '../admit.js';
import { recordSlowSubscriber, type ServerContext } from '../context.js';
import { contentTypes, formats, type StreamFormat } from './framing.js';
import { HttpSink } from './http-sink.js';
import { openBilled } from './open.js';
import { parseSubscribe } from './params.js';

/** GET /{topics}/json|sse|raw: a long-lived stream, or with poll=1 the cached messages at once. */
export async function handleStream(ctx: ServerContext, format: StreamFormat, ex: Exchange, req: RequestInfo, topics: string[]): Promise<void> {
  const admitted = await admit(ctx, req, topics, 'read');
  const { visitor } = admitted;
  // Held from here until the stream ends, by a poll too while it runs: ntfy's
  // handleSubscribeHTTP takes the slot before its poll branch. 42903 past the limit.
  visitor.subscribe();
  let params, opened;
  try {
    params = parseSubscribe(req);
    ctx.topics.admitSubscription(topics);
    await billSubscriber(ctx, topics, admitted);
    opened = await openBilled(ctx, visitor, topics, params);
  } catch (err) {
    visitor.unsubscribe();
    throw err;
  }
  if (params.poll || ex.aborted) {
    visitor.unsubscribe();
    return params.poll ? poll(format, ex, opened) : opened.cancel();
  }
  const extraHeaders = truncatedHeader(opened.truncated);

  const sink = new HttpSink(ex, {
    format,
    extraHeaders,
    flusher: ctx.flusher,
    bufferLimit: ctx.config.subscriberBufferLimit,
    onOverflow: () => {
      recordSlowSubscriber(ctx, topics, format, req.remoteAddress);
      stop();
    },
  });
  const push = (event: Parameters<HttpSink['push']>[0]): void => sink.push(event);
  const grouped = isEmptyFilter(params.filter);
  let own: Subscription | undefined;
  if (grouped) {
    // The open event, the replay and whatever arrived meanwhile go out first; then the sink
    // joins its topics' groups in the same synchronous step, so nothing falls between.
    opened.events$.subscribe(push).unsubscribe();
    ctx.fanout.join(sink, topics);
  } else {
    own = opened.events$.subscribe(push);
  }
  sink.arm();
  const keepalive = interval(ctx.config.keepaliveIntervalMs).subscribe(() => sink.push(controlOutbound('keepalive', topics)));

  let stopped = false;
  function stop(): void {
    if (stopped) return;
    stopped = true;
    visitor.unsubscribe();
    ctx.log.debug({ format, topics: topics.join(','), subscriptions: visitor.subscriptions }, 'subscription closed');
    own?.unsubscribe();
    keepalive.unsubscribe();
    if (grouped) ctx.fanout.leave(sink, topics);
    ctx.connections.delete(close);
  }
  function close(): void {
    stop();
    sink.end();
  }
  ctx.connections.add(close);
  ex.onAbort(stop);
}

/** poll=1: the cached messages at once. */
function poll(format: StreamFormat, ex: Exchange, opened: Opened): void {
  if (ex.aborted) return opened.cancel();
  const frames: Buffer[] = [];
  opened.events$.subscribe((event) => frames.push(event.frame(formats[format])));
  ex.send(200, Buffer.concat(frames), contentTypes[format], truncatedHeader(opened.truncated));
}

/** A replay cut at replayLimitBytes says so, as Tocsin's clients may want to know. */
function truncatedHeader(truncated: boolean): readonly (readonly [string, string])[] {
  return truncated ? [['X-Messages-Truncated', '1']] : [];
}
