import type { Message } from './message.js';

/** The fields stream filters and the raw format read; everything else travels only as JSON. */
export type MessageHead = Pick<Message, 'id' | 'time' | 'event' | 'topic' | 'message' | 'title' | 'priority' | 'tags'>;

function headOf({ id, time, event, topic, message, title, priority, tags }: Message): MessageHead {
  return { id, time, event, topic, message, title, priority, tags };
}

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
  private parsedHead: MessageHead | undefined;

  private constructor(
    head: MessageHead | undefined,
    /** The message JSON exactly as stored and delivered. */
    readonly json: string,
    /** Commit order in the cache; undefined for events that were never stored. */
    readonly seq?: number,
    /** False for an event the cache never held (`Cache: no`, open, keepalive). */
    readonly cached = true,
  ) {
    this.parsedHead = head;
  }

  static of(message: Message, json: string, seq?: number): Outbound {
    return new Outbound(headOf(message), json, seq, seq !== undefined);
  }

  /**
   * An event read back from the cache (with its seq when it goes live): only its JSON is
   * fetched, and the head is parsed from it on first use (filters, the raw format,
   * multi-topic ordering). A plain replay never parses: fetching the head's columns made a
   * 10,000-message replay 5x slower.
   */
  static stored(json: string, seq?: number): Outbound {
    return new Outbound(undefined, json, seq);
  }

  get head(): MessageHead {
    return (this.parsedHead ??= headOf(JSON.parse(this.json) as Message));
  }

  frame(format: WireFormat): Buffer {
    return (this.frames[format.slot] ??= format.frame(this));
  }
}
