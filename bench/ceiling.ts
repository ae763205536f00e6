/**
 * The ceiling: a bare uWebSockets.js server doing the least work each scenario needs, so
 * Tocsin's figures can be read as a share of what this machine allows. POST /{topic}
 * answers a fixed JSON and fans the body out as one pre-framed line per format; GET
 * /{topic}/json|sse|raw holds a stream; /{topic}/ws subscribes to uWS pub/sub. Writes to
 * streams are coalesced per event-loop turn in one corked write, as DESIGN.md measured.
 * GET /{topic}/json?poll=1 answers the stored lines, for the replay scenario.
 */
import { uws, type HttpResponse } from '../src/transports/http/uws.js';

type Format = 'json' | 'sse' | 'raw';
interface Stream {
  res: HttpResponse;
  format: Format;
  queue: Buffer[];
  open: boolean;
}

const streams = new Map<string, Set<Stream>>();
const stored = new Map<string, Buffer[]>();
const dirty = new Set<Stream>();
let flushScheduled = false;
const replayCap = 20_000;
const answer = Buffer.from('{"id":"xxxxxxxxxxxx","time":0,"event":"message","topic":"t","message":"ok"}\n');

function flush(): void {
  flushScheduled = false;
  for (const s of dirty) {
    if (!s.open) continue;
    s.res.cork(() => {
      for (const chunk of s.queue) s.res.write(chunk);
    });
    s.queue = [];
  }
  dirty.clear();
}

function frame(format: Format, json: string, body: string): Buffer {
  if (format === 'sse') return Buffer.from(`data: ${json}\n\n`);
  if (format === 'raw') return Buffer.from(`${body}\n`);
  return Buffer.from(`${json}\n`);
}

const app = uws.App();
app.ws<{ topic: string }>('/*', {
  maxBackpressure: 16 * 1024 * 1024,
  upgrade: (res, req, context) => {
    const topic = req.getUrl().split('/')[1] ?? '';
    res.upgrade({ topic }, req.getHeader('sec-websocket-key'), req.getHeader('sec-websocket-protocol'), req.getHeader('sec-websocket-extensions'), context);
  },
  open: (ws) => {
    ws.subscribe(ws.getUserData().topic);
  },
});
app.post('/:topic', (res, req) => {
  const topic = req.getParameter(0) ?? '';
  const chunks: Buffer[] = [];
  res.onAborted(() => undefined);
  res.onData((chunk, last) => {
    chunks.push(Buffer.from(chunk.slice(0)));
    if (!last) return;
    const body = Buffer.concat(chunks).toString();
    res.cork(() => res.writeHeader('Content-Type', 'application/json').end(answer));
    const json = JSON.stringify({ id: 'xxxxxxxxxxxx', time: 0, event: 'message', topic, message: body });
    const lines = stored.get(topic) ?? (stored.set(topic, []).get(topic) as Buffer[]);
    lines.push(frame('json', json, body));
    // Keep the newest lines only, like a cache: unbounded growth would measure the GC.
    if (lines.length > 2 * replayCap) lines.splice(0, lines.length - replayCap);
    app.publish(topic, json, false);
    const subscribers = streams.get(topic);
    if (!subscribers) return;
    const frames = { json: frame('json', json, body), sse: frame('sse', json, body), raw: frame('raw', json, body) };
    for (const s of subscribers) {
      s.queue.push(frames[s.format]);
      dirty.add(s);
    }
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flush);
    }
  });
});
app.get('/:topic/:format', (res, req) => {
  const topic = req.getParameter(0) ?? '';
  const format = req.getParameter(1) as Format;
  if (req.getQuery()?.includes('poll=1')) {
    res.cork(() => res.writeHeader('Content-Type', 'application/x-ndjson').end(Buffer.concat(stored.get(topic) ?? [])));
    return;
  }
  const s: Stream = { res, format, queue: [], open: true };
  const set = streams.get(topic) ?? streams.set(topic, new Set()).get(topic);
  set?.add(s);
  res.onAborted(() => {
    s.open = false;
    set?.delete(s);
  });
  res.cork(() => res.writeHeader('Content-Type', 'text/plain').write(format === 'raw' ? '\n' : format === 'sse' ? 'event: open\ndata: {}\n\n' : '{"event":"open"}\n'));
});
app.listen('127.0.0.1', 0, (socket) => {
  if (!socket) process.exit(1);
  process.send?.({ port: uws.us_socket_local_port(socket) });
});
process.on('message', (msg: string) => {
  if (msg === 'memory') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ memory: process.memoryUsage() });
  }
  if (msg === 'stop') process.exit(0);
});
// The harness died (a timeout killed it): nothing will stop this server otherwise.
process.on('disconnect', () => process.exit(1));
