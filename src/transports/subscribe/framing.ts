import type { Outbound, WireFormat } from '../../model/outbound.js';
import type { Replayed } from '../../model/replayed.js';

/** Events a topic's cache holds, and so a replay can resume after. */
const resumable: ReadonlySet<string> = new Set(['message', 'message_delete', 'message_clear']);

/**
 * An `id:` line for an event a reconnecting `EventSource` can resume after (it sends the
 * last id it saw as `Last-Event-ID`). An uncached message has none: resuming after its id
 * would name a message the cache never held, so the browser keeps the previous one.
 */
function sseId(e: Outbound): string {
  return e.cached && resumable.has(e.head.event) ? `id: ${e.head.id}\n` : '';
}

/** The text of one event's frame in each stream format (a frame is this text's UTF-8). */
const texts = {
  /** One JSON object per line. */
  json: (e: Outbound) => `${e.json}\n`,
  /** Message events carry no `event:` line, so a browser's onmessage sees them; others name their event. */
  sse: (e: Outbound) => `${sseId(e)}${e.head.event === 'message' ? '' : `event: ${e.head.event}\n`}data: ${e.json}\n\n`,
  /** Only the body, on one line; ntfy's events are empty lines, Tocsin's replay_gap nothing (a raw reader takes each line for a message). */
  raw: (e: Outbound) => (e.head.event === 'message' ? `${(e.head.message ?? '').replaceAll('\n', ' ')}\n` : e.head.event === 'replay_gap' ? '' : '\n'),
} as const;

/**
 * The four wire formats, framed exactly as ntfy frames them (server.go
 * handleSubscribeJSON/SSE/Raw/WS). Each frame is built once per event and shared.
 */
export const formats = {
  json: { slot: 0, frame: (e: Outbound) => Buffer.from(texts.json(e)) },
  sse: { slot: 1, frame: (e: Outbound) => Buffer.from(texts.sse(e)) },
  raw: { slot: 2, frame: (e: Outbound) => Buffer.from(texts.raw(e)) },
  /** One JSON object per WebSocket text frame. */
  ws: { slot: 3, frame: (e: Outbound) => Buffer.from(e.json) },
} as const satisfies Record<string, WireFormat>;

export type StreamFormat = 'json' | 'sse' | 'raw';

export const contentTypes: Record<StreamFormat, string> = {
  // The charset matters: ntfy's Android client (Volley) misreads the stream without it.
  json: 'application/x-ndjson; charset=utf-8',
  sse: 'text/event-stream; charset=utf-8',
  raw: 'text/plain; charset=utf-8',
};

/**
 * A replay's frames as one buffer, written at once. JSON lines are written straight from
 * the stored JSON into a buffer of the size the cache counted: a frame per message and
 * their concatenation took 4 of the ~26 ms a 10,000-message poll cost the server, and
 * joining them into one string for uWS to encode ~4 ms, this ~1.7; lines the cache read
 * as one block go out as they are. The other formats read each message's event first.
 */
export function replayBlock(format: StreamFormat, replay: Replayed): Buffer {
  if (format !== 'json') return Buffer.from(replay.events.map(texts[format]).join(''));
  if (replay.lines) return replay.lines;
  const block = Buffer.allocUnsafe(replay.bytes + replay.json.length);
  let at = 0;
  for (const json of replay.json) {
    at += block.write(json, at);
    block[at++] = 0x0a;
  }
  return block;
}
