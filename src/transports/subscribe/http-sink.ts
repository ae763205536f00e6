import type { Outbound } from '../../model/outbound.js';
import { corsHeaders, type Exchange } from '../http/respond.js';
import { contentTypes, formats, type StreamFormat } from './framing.js';
import type { Flushable, TurnFlusher } from './flusher.js';

/**
 * An HTTP streaming response (json, sse, raw). Frames queue here and go out once per turn
 * in one corked write. When uWS reports backpressure the sink stops writing and waits for
 * onWritable; what queues meanwhile is bounded by `bufferLimit`, so a stalled client can
 * never grow the heap: past it the response is closed and `overflowed` says so.
 *
 * A subscription's stream is a sink (http-stream.ts extends it) rather than holding one:
 * each idle stream is one object, without closures for its callbacks.
 */
export abstract class HttpSink implements Flushable {
  private queue: Buffer[] = [];
  private queued = 0;
  /** Bytes of the initial replay still queued: bounded by the replay cap, not by bufferLimit. */
  private backlog = 0;
  private armed = false;
  private blocked = false;
  private started = false;

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

  /** The response is over: the client went away, it ended, or it overflowed (each sets the exchange aborted). */
  private get over(): boolean {
    return this.ex.aborted;
  }

  push(event: Outbound): void {
    this.pushFrame(event.frame(formats[this.format]));
  }

  /** Queues bytes already framed in the sink's format (a replay's block). */
  pushFrame(frame: Buffer): void {
    if (this.over || frame.length === 0) return;
    this.queue.push(frame);
    this.queued += frame.length;
    // Only a client that is not reading (uWS reported backpressure) can overflow: what
    // queues while the socket accepts data goes out at the end of this turn.
    if (this.blocked) {
      if (this.armed && this.queued - this.backlog > this.bufferLimit) this.overflow();
    } else this.flusher.mark(this);
  }

  /** Everything queued so far is the replay; from now on the buffer limit applies. */
  arm(): void {
    this.armed = true;
    this.backlog = this.queued;
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
          // uWS keeps the rest of this frame; hold everything after it until the socket drains.
          this.blocked = true;
          res.onWritable(() => {
            this.blocked = false;
            this.flush();
            return true;
          });
          break;
        }
      }
      this.queue = sent === this.queue.length ? [] : this.queue.slice(sent);
      this.backlog = Math.min(this.backlog, this.queued);
    });
  }

  /** Ends the response cleanly (shutdown, or the end of a stream). */
  end(): void {
    if (this.over) return;
    this.flush();
    this.ex.aborted = true;
    this.ex.res.cork(() => {
      if (!this.started) this.writeHead();
      this.ex.res.end();
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
