import { Outbound } from './outbound.js';

/**
 * A subscription's replay, oldest first: the messages' stored JSON, which a stream writes
 * as one block, and the same as events once something needs them one by one (WebSocket
 * frames, SSE event names, raw bodies, filters, ordering across topics). A replay of
 * 10,000 messages made no object per message on the way to a JSON stream.
 */
export class Replayed {
  private constructor(
    readonly json: readonly string[],
    /** The JSON's UTF-8 bytes: what the subscriber's bandwidth pays for the replay. */
    readonly bytes: number,
    private parsed: readonly Outbound[] | undefined,
  ) {}

  /** `bytes`: of `json`, as the cache counted them. */
  static ofJson(json: readonly string[], bytes: number): Replayed {
    return new Replayed(json, bytes, undefined);
  }

  static ofEvents(events: readonly Outbound[]): Replayed {
    const json = events.map((e) => e.json);
    return new Replayed(json, json.reduce((sum, j) => sum + Buffer.byteLength(j), 0), events);
  }

  get events(): readonly Outbound[] {
    return (this.parsed ??= this.json.map((json) => Outbound.stored(json)));
  }
}
