import { controlOutbound, openSubscription } from '../../streams/subscription.js';
import { withKeepalive } from '../../operators/keepalive.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { replayLimitBytes, type ServerContext } from '../context.js';
import { contentTypes, formats, type StreamFormat } from './framing.js';
import { HttpSink } from './http-sink.js';
import { parseSubscribe } from './params.js';

/** GET /{topics}/json|sse|raw: a long-lived stream, or with poll=1 the cached messages at once. */
export async function handleStream(ctx: ServerContext, format: StreamFormat, ex: Exchange, req: RequestInfo, topics: string[]): Promise<void> {
  const params = parseSubscribe(req);
  ctx.topics.admit(topics);
  const opened = await openSubscription({ hub: ctx.hub, cache: ctx.cache, replayLimit: replayLimitBytes }, { topics, ...params });
  if (ex.aborted) return opened.cancel();
  const extraHeaders = opened.truncated ? ([['X-Messages-Truncated', '1']] as const) : [];

  if (params.poll) {
    const frames: Buffer[] = [];
    opened.events$.subscribe((event) => frames.push(event.frame(formats[format])));
    return ex.send(200, Buffer.concat(frames), contentTypes[format], extraHeaders);
  }

  const sink = new HttpSink(ex, {
    format,
    extraHeaders,
    flusher: ctx.flusher,
    bufferLimit: ctx.config.subscriberBufferLimit,
    onOverflow: () => {
      ctx.counters.slowSubscribersDropped++;
      ctx.log.warn({ topics: topics.join(','), format, remote: req.remoteAddress }, 'dropped a subscriber that stopped reading (buffer limit reached)');
      subscription.unsubscribe();
    },
  });
  const subscription = opened.events$
    .pipe(withKeepalive(ctx.config.keepaliveIntervalMs, () => controlOutbound('keepalive', topics)))
    .subscribe((event) => sink.push(event));
  sink.arm();
  const close = (): void => {
    subscription.unsubscribe();
    sink.end();
  };
  ctx.connections.add(close);
  ex.onAbort(() => {
    subscription.unsubscribe();
    ctx.connections.delete(close);
  });
}
