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
    private parsed: readonly Outbound[] | undefined,
  ) {}

  static ofJson(json: readonly string[]): Replayed {
    return new Replayed(json, undefined);
  }

  static ofEvents(events: readonly Outbound[]): Replayed {
    return new Replayed(events.map((e) => e.json), events);
  }

  get events(): readonly Outbound[] {
    return (this.parsed ??= this.json.map((json) => Outbound.stored(json)));
  }

  /** The JSON's UTF-8 bytes: what the subscriber's bandwidth pays for the replay. */
  bytes(): number {
    let sum = 0;
    for (const json of this.json) sum += Buffer.byteLength(json);
    return sum;
  }
}
