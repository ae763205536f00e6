import type { Message } from './message.js';

/** The fields stream filters and the raw format read; everything else travels only as JSON. */
export type MessageHead = Pick<Message, 'id' | 'time' | 'event' | 'topic' | 'message' | 'title' | 'priority' | 'tags'>;

/** A wire format's framing of one event; see transports/subscribe/framing.ts. */
export interface WireFormat {
  /** Small integer naming the format; indexes the per-event frame memo. */
  readonly slot: number;
  frame(event: Outbound): Buffer;
}

/**
 * One event on its way to subscribers. It is encoded at most once per wire format and
 * every subscriber of that format shares the same bytes (DESIGN.md: encode once).
 */
export class Outbound {
  private readonly frames: (Buffer | undefined)[] = [];

  constructor(
    readonly head: MessageHead,
    /** The message JSON exactly as stored and delivered. */
    readonly json: string,
    /** Commit order in the cache; undefined for events that were never stored. */
    readonly seq?: number,
  ) {}

  static of(message: Message, json: string, seq?: number): Outbound {
    const { id, time, event, topic, message: body, title, priority, tags } = message;
    return new Outbound({ id, time, event, topic, message: body, title, priority, tags }, json, seq);
  }

  frame(format: WireFormat): Buffer {
    return (this.frames[format.slot] ??= format.frame(this));
  }
}
