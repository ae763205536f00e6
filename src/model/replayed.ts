import type { Replay } from '../store/message-cache.js';
import { Outbound } from './outbound.js';

/**
 * A subscription's replay, oldest first: the messages' stored JSON, which a stream writes
 * as one block, and the same as events once something needs them one by one (WebSocket
 * frames, SSE event names, raw bodies, filters, ordering across topics). A replay of
 * 10,000 messages made no object per message on the way to a JSON stream.
 */
export class Replayed {
  private constructor(
    /** Where the JSON is read from: a cache's replay splits it out of its block at first use. */
    private readonly source: Pick<Replay, 'json'>,
    /** The JSON's UTF-8 bytes: what the subscriber's bandwidth pays for the replay. */
    readonly bytes: number,
    private parsed: readonly Outbound[] | undefined,
    /** The JSON as lines (each followed by '\n'), when the cache read it as one block. */
    readonly lines?: Buffer,
  ) {}

  /** A cache's replay (`bytes`: of its JSON, as the cache counted them), kept as the block it was read in when it was. */
  static of(replay: Pick<Replay, 'json' | 'bytes' | 'lines'>): Replayed {
    return new Replayed(replay, replay.bytes, undefined, replay.lines);
  }

  static ofEvents(events: readonly Outbound[]): Replayed {
    const json = events.map((e) => e.json);
    return new Replayed({ json }, json.reduce((sum, j) => sum + Buffer.byteLength(j), 0), events);
  }

  /** The messages' JSON, oldest first. */
  get json(): readonly string[] {
    return this.source.json;
  }

  get events(): readonly Outbound[] {
    return (this.parsed ??= this.json.map((json) => Outbound.stored(json)));
  }
}
