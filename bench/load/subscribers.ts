/**
 * Subscriber load: holds many subscriptions (ws, sse, json, raw) and counts deliveries of
 * benchmark messages, whose body is `bench:<send time in epoch ms>;`. Latency is read on a
 * sample of the connections, so parsing never makes this process the bottleneck.
 * Subscriptions opened with `ids` (ws or json) instead keep the id of every message event,
 * and `check` counts, per subscription, the acknowledged publishes it has not seen.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { serveCommands } from '../worker.js';
import { IdReader } from './id-reader.js';

const marker = Buffer.from('bench:');
/** Latency samples kept between two `take` calls; enough for a p99, bounded for IPC. */
const maxSamples = 20_000;

interface Open {
  url: string;
  topics: string[];
  format: 'ws' | 'sse' | 'json' | 'raw';
  count: number;
  /** Index of this process's first subscription among all processes' (spreads topics). */
  offset: number;
  /** Read latency on one connection in this many. */
  sampleEvery: number;
  /** Keep message ids instead of counting markers. */
  ids?: boolean;
  /** Established on the open event, not the 101 or 200 (Tocsin's streams; the ceiling sends none): see `open`. */
  awaitOpen?: boolean;
}

let deliveries = 0;
let latencies: number[] = [];
const sockets: Socket[] = [];
/** The `ids` subscriptions, each with where it reads (node and path), to name the ones that miss. */
const idReaders: { reader: IdReader; at: string }[] = [];
/** Subscriptions the server ended, each with the last bytes it sent (a WebSocket close frame, an error): at most 8 kept. */
const ended: string[] = [];
/** Subscriptions opened again because the server closed them before their open event (see `open`). */
const reopened: string[] = [];
let acknowledged = new Set<string>();
const now = (): number => performance.timeOrigin + performance.now();

/**
 * Counts complete markers in `text`; returns how many bytes were consumed, so the caller
 * keeps the rest (a marker split across two chunks) for the next chunk.
 */
function scan(text: Buffer, sampled: boolean): number {
  let consumed = 0;
  let at = text.indexOf(marker);
  while (at >= 0) {
    const end = text.indexOf(59 /* ; */, at);
    if (end < 0) return at;
    deliveries++;
    if (sampled && latencies.length < maxSamples) latencies.push(now() - Number(text.toString('latin1', at + marker.length, end)));
    consumed = end + 1;
    at = text.indexOf(marker, consumed);
  }
  return Math.max(consumed, text.length - (marker.length - 1));
}

/** ntfy's first event on a stream (none on a raw one): a subscription is established once it came. */
const openEvent = Buffer.from('"event":"open"');
/** Times a subscription is opened again when the server closes it before its open event. */
const reopens = 3;

/**
 * A subscription over a plain TCP socket. WebSocket frames from a server are unmasked, so
 * the marker can be counted in the raw bytes exactly as in a JSON or SSE stream: the
 * `ws` library would cost this process several times more per message than the server
 * spends, and the client must not be the bottleneck. Resolves on the 101 or 200, or with
 * `awaitOpen` once the stream's open event came (a raw stream's 200): uWebSockets.js 20.30 may close a WebSocket it upgraded after
 * an asynchronous admission (every one on PostgreSQL and MongoDB, whose auth reads wait)
 * right after the 101 (uNetworking/uWebSockets#1928), which ntfy's clients answer by
 * reconnecting; so does this, before anything is published, and says so.
 */
function open(url: URL, path: string, websocket: boolean, read: (text: Buffer) => number, awaitOpen: boolean, tries = reopens): Promise<void> {
  let last: Buffer = Buffer.alloc(0);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    let ready = false;
    let opened = !awaitOpen || path.endsWith('/raw');
    let tail: Buffer = Buffer.alloc(0);
    let failure: Error | undefined;
    socket.setNoDelay(true);
    const upgrade = websocket ? 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n' : '';
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\n${upgrade}\r\n`));
    socket.on('data', (chunk: Buffer) => {
      const text = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
      if (!ready) {
        // The status line may come in pieces: an upgrade after an await is written uncorked,
        // a write per header (see ws.ts).
        if (text.indexOf('\r\n') < 0) return void (tail = text);
        // A refusal (a 4xx or 5xx) would otherwise count as a subscription that received nothing.
        if (!/^HTTP\/1\.1 (200|101) /.test(text.toString('latin1', 0, 16))) {
          socket.destroy();
          return reject(new Error(`${path}: ${text.toString('utf8', 0, 200)}`));
        }
        ready = true;
        if (opened) resolve();
      }
      if (!opened && text.includes(openEvent)) {
        opened = true;
        resolve();
      }
      tail = Buffer.from(text.subarray(read(text)));
      last = chunk;
    });
    socket.on('close', () => {
      if (!opened && tries > 0) {
        sockets.splice(sockets.indexOf(socket), 1);
        reopened.push(`${url.host}${path}`);
        return void open(url, path, websocket, read, awaitOpen, tries - 1).then(resolve, reject);
      }
      if (ended.length < 8) ended.push(`${url.host}${path} ended after ${JSON.stringify(last.toString('latin1', Math.max(0, last.length - 120)))}`);
      reject(failure ?? new Error(`${path}: closed before its open event, ${reopens + 1} times`));
    });
    socket.on('error', (err) => (failure = err)); // 'close' follows
    sockets.push(socket);
  });
}

serveCommands({
  open: async ({ url, topics, format, count, offset, sampleEvery, ids = false, awaitOpen = false }: Open) => {
    const base = new URL(url);
    const opening: Promise<void>[] = [];
    for (let i = 0; i < count; i++) {
      const topic = topics[(offset + i) % topics.length] as string;
      const sampled = i % sampleEvery === 0;
      const reader = ids ? new IdReader() : undefined;
      if (reader) idReaders.push({ reader, at: `${base.host}/${topic}/${format}` });
      opening.push(open(base, `/${topic}/${format}`, format === 'ws', reader ? (text) => reader.read(text) : (text) => scan(text, sampled), awaitOpen));
      // Open in waves, so the server's accept queue is never the thing measured.
      if (opening.length % 500 === 0) await Promise.all(opening.slice(-500));
    }
    await Promise.all(opening);
    return { open: sockets.length };
  },
  /** Deliveries and sampled latencies since the last call. */
  take: () => {
    const result = { deliveries, latencies };
    deliveries = 0;
    latencies = [];
    return result;
  },
  /** The acknowledged publishes' ids, from files of one id a line (wrk's, see load/wrk.ts). */
  expect: ({ files }: { files: string[] }) => {
    acknowledged = new Set(files.flatMap((file) => readFileSync(file, 'utf8').split('\n').filter((id) => id !== '')));
    return { acknowledged: acknowledged.size };
  },
  /**
   * Over the `ids` subscriptions: acknowledged publishes not seen (each subscription's
   * summed), repeats, messages seen; and, to say where a loss is, the subscriptions that
   * miss some (each with how many and the first it misses; at most 8) and those the server ended.
   */
  check: () => {
    let lost = 0;
    let duplicated = 0;
    let messages = 0;
    const missing: string[] = [];
    for (const { reader, at } of idReaders) {
      const unseen = [...acknowledged].filter((id) => !reader.seen.has(id));
      if (unseen.length > 0 && missing.length < 8) missing.push(`${at} misses ${unseen.length} acknowledged publishes, first ${unseen[0]}`);
      lost += unseen.length;
      duplicated += reader.duplicated;
      messages += reader.messages;
    }
    const again = reopened.length > 0 ? [`${reopened.length} subscriptions opened again, the server having closed them before their open event: ${reopened.slice(0, 4).join(', ')}`] : [];
    return { subscriptions: idReaders.length, lost, duplicated, messages, missing: [...missing, ...ended, ...again] };
  },
  close: () => {
    // Ended here, not by the server: not among `ended`.
    for (const s of sockets) s.removeAllListeners('close').destroy();
    sockets.length = 0;
    idReaders.length = 0;
    ended.length = 0;
    reopened.length = 0;
    acknowledged = new Set();
    return {};
  },
});
