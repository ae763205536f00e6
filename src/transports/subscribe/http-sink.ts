import type { Outbound, WireFormat } from '../../model/outbound.js';
import { corsHeaders, type Exchange } from '../http/respond.js';
import { contentTypes, formats, type StreamFormat } from './framing.js';
import type { Flushable, TurnFlusher } from './flusher.js';
import type { GroupMember, TurnEvents } from './stream-group.js';

/**
 * An HTTP streaming response (json, sse, raw). Frames queue here and go out once per turn
 * in one corked write. When uWS reports backpressure the sink stops writing and waits for
 * onWritable; what queues meanwhile is bounded by `bufferLimit`, so a stalled client can
 * never grow the heap: past it the response is closed and `overflowed` says so.
 *
 * In a fan-out group (StreamGroup) the group's events do not queue here one by one: the
 * group hands over each turn's events at its flush, and a sink with nothing of its own
 * queued writes the group's shared Buffer as it is. Frames of its own (a keepalive) first
 * take in the group's events of the turn that came before them, so the order on the wire
 * is the order events reached the sink.
 *
 * A subscription's stream is a sink (http-stream.ts extends it) rather than holding one:
 * each idle stream is one object, without closures for its callbacks.
 */
export abstract class HttpSink implements Flushable, GroupMember {
  private queue: Buffer[] = [];
  private queued = 0;
  /** Bytes of the initial replay still queued: bounded by the replay cap, not by bufferLimit. */
  private backlog = 0;
  private armed = false;
  private blocked = false;
  private started = false;
  private group: TurnEvents | undefined;
  /** How many of the group's events of this turn are queued here already, or came before the sink joined. */
  private held = 0;

  constructor(
    protected readonly ex: Exchange,
    readonly format: StreamFormat,
    private readonly flusher: TurnFlusher,
    /** Most bytes held for a client that does not read; past it the client is dropped. */
    private readonly bufferLimit: number,
    private readonly extraHeaders: readonly (readonly [string, string])[],
  ) {}

  /** The client stopped reading past the buffer limit; the response is closed. */
  protected abstract overflowed(): void;

  get wireFormat(): WireFormat {
    return formats[this.format];
  }

  /** The response is over: the client went away, it ended, or it overflowed (each sets the exchange aborted). */
  private get over(): boolean {
    return this.ex.aborted;
  }

  push(event: Outbound): void {
    this.pushFrame(event.frame(this.wireFormat));
  }

  /** Queues bytes already framed in the sink's format (a replay's block). */
  pushFrame(frame: Buffer): void {
    this.catchUp();
    if (this.over || frame.length === 0) return;
    this.enqueue(frame);
    if (!this.blocked) this.flusher.mark(this);
  }

  /** Everything queued so far is the replay; from now on the buffer limit applies. */
  arm(): void {
    this.armed = true;
    this.backlog = this.queued;
  }

  joined(group: TurnEvents): void {
    this.group = group;
    this.held = group.events.length;
  }

  left(): void {
    this.group = undefined;
    this.held = 0;
  }

  take(events: readonly Outbound[], shared: Buffer): void {
    const from = this.held;
    this.held = 0;
    if (this.over) return;
    if (from === 0 && this.queue.length === 0 && this.started && !this.blocked) {
      const { res } = this.ex;
      res.cork(() => {
        if (!res.write(shared)) this.block();
      });
      return;
    }
    for (let i = from; i < events.length && !this.over; i++) this.enqueue((events[i] as Outbound).frame(this.wireFormat));
    this.flush();
  }

  flush(): void {
    if (this.over || this.blocked) return;
    const { res } = this.ex;
    res.cork(() => {
      if (!this.started) this.writeHead();
      let sent = 0;
      while (sent < this.queue.length) {
        const frame = this.queue[sent++] as Buffer;
        this.queued -= frame.length;
        if (!res.write(frame)) {
          this.block();
          break;
        }
      }
      this.queue = sent === this.queue.length ? [] : this.queue.slice(sent);
      this.backlog = Math.min(this.backlog, this.queued);
    });
  }

  /** Ends the response cleanly (shutdown, or the end of a stream). */
  end(): void {
    this.catchUp();
    if (this.over) return;
    this.flush();
    this.ex.aborted = true;
    this.ex.res.cork(() => {
      if (!this.started) this.writeHead();
      this.ex.res.end();
    });
  }

  /** Queues the group's events of this turn that are not here yet. */
  private catchUp(): void {
    const events = this.group?.events;
    if (!events) return;
    while (this.held < events.length && !this.over) this.enqueue((events[this.held++] as Outbound).frame(this.wireFormat));
  }

  private enqueue(frame: Buffer): void {
    this.queue.push(frame);
    this.queued += frame.length;
    // Only a client that is not reading (uWS reported backpressure) can overflow: what
    // queues while the socket accepts data goes out at the end of this turn.
    if (this.blocked && this.armed && this.queued - this.backlog > this.bufferLimit) this.overflow();
  }

  /** uWS kept the rest of the last write: hold everything after it until the socket drains. */
  private block(): void {
    this.blocked = true;
    this.ex.res.onWritable(() => {
      this.blocked = false;
      this.flush();
      return true;
    });
  }

  private writeHead(): void {
    const { res } = this.ex;
    this.started = true;
    res.writeStatus('200 OK');
    for (const [name, value] of corsHeaders) res.writeHeader(name, value);
    for (const [name, value] of this.extraHeaders) res.writeHeader(name, value);
    res.writeHeader('Content-Type', contentTypes[this.format]);
  }

  private overflow(): void {
    this.ex.aborted = true;
    this.queue = [];
    this.queued = 0;
    this.ex.res.close();
    this.overflowed();
  }
}
