import type { Outbound } from '../../model/outbound.js';
import { corsHeaders, type Exchange } from '../http/respond.js';
import { contentTypes, formats, type StreamFormat } from './framing.js';
import type { Flushable, TurnFlusher } from './flusher.js';

export interface SinkOptions {
  format: StreamFormat;
  extraHeaders: readonly (readonly [string, string])[];
  flusher: TurnFlusher;
  /** Most bytes held for a client that does not read; past it the client is dropped. */
  bufferLimit: number;
  onOverflow(): void;
}

/**
 * An HTTP streaming response (json, sse, raw). Frames queue here and go out once per turn
 * in one corked write. When uWS reports backpressure the sink stops writing and waits for
 * onWritable; what queues meanwhile is bounded by `bufferLimit`, so a stalled client can
 * never grow the heap.
 */
export class HttpSink implements Flushable {
  private queue: Buffer[] = [];
  private queued = 0;
  /** Bytes of the initial replay still queued: bounded by the replay cap, not by bufferLimit. */
  private backlog = 0;
  private armed = false;
  private blocked = false;
  private started = false;
  private closed = false;

  constructor(
    private readonly ex: Exchange,
    private readonly options: SinkOptions,
  ) {
    ex.onAbort(() => (this.closed = true));
  }

  push(event: Outbound): void {
    this.pushFrame(event.frame(formats[this.options.format]));
  }

  /** Queues bytes already framed in the sink's format (a replay's block). */
  pushFrame(frame: Buffer): void {
    if (this.closed || frame.length === 0) return;
    this.queue.push(frame);
    this.queued += frame.length;
    // Only a client that is not reading (uWS reported backpressure) can overflow: what
    // queues while the socket accepts data goes out at the end of this turn.
    if (this.blocked) {
      if (this.armed && this.queued - this.backlog > this.options.bufferLimit) this.overflow();
    } else this.options.flusher.mark(this);
  }

  /** Everything queued so far is the replay; from now on the buffer limit applies. */
  arm(): void {
    this.armed = true;
    this.backlog = this.queued;
  }

  flush(): void {
    if (this.closed || this.blocked) return;
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
    if (this.closed) return;
    this.flush();
    this.closed = true;
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
    for (const [name, value] of this.options.extraHeaders) res.writeHeader(name, value);
    res.writeHeader('Content-Type', contentTypes[this.options.format]);
  }

  private overflow(): void {
    this.closed = true;
    this.ex.aborted = true;
    this.queue = [];
    this.queued = 0;
    this.ex.res.close();
    this.options.onOverflow();
  }
}
