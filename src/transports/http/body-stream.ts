import type { Body } from './body.js';
import type { Exchange } from './respond.js';

/**
 * A publish body: its first `limit` bytes in memory (`head`, as readBody reads it), and
 * the rest — an upload — held back with the client paused until the request is admitted,
 * then handed on chunk by chunk (`rest`) straight from uWS's memory to a synchronous
 * writer. Nothing past the head is queued, so a 15 MB upload never sits in memory.
 */
export class BodyStream {
  readonly head: Promise<Body>;
  private settleHead!: { resolve: (body: Body) => void; reject: (err: Error) => void };
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private state: 'head' | 'held' | 'flowing' | 'done' = 'head';
  /** What arrived between the head and `rest`: copies, few, as the client is paused. */
  private held: Buffer[] = [];
  private ended = false;
  private write?: (chunk: Uint8Array) => void;
  private settleRest?: { resolve: () => void; reject: (err: unknown) => void };

  constructor(
    private readonly ex: Exchange,
    private readonly limit: number,
  ) {
    this.head = new Promise((resolve, reject) => (this.settleHead = { resolve, reject }));
    ex.onAbort(() => this.fail(new Error('client went away')));
    ex.res.onData((chunk, isLast) => this.data(new Uint8Array(chunk), isLast));
  }

  /** Hands the bytes past the head to `write` as they come; resolves when the body has ended. */
  rest(write: (chunk: Uint8Array) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.settleRest = { resolve, reject };
      this.write = write;
      this.state = 'flowing';
      const held = this.held;
      this.held = [];
      for (const chunk of held) if (!this.pass(chunk)) return;
      if (this.ended) this.finish();
      else this.ex.res.resume();
    });
  }

  /** Lets the client send the rest of a refused body, read and dropped, so it sees the answer. */
  discard(): void {
    const paused = this.state === 'held' && !this.ended;
    this.state = 'done';
    this.held = [];
    if (paused && !this.ex.aborted) this.ex.res.resume();
  }

  /** `chunk` is uWS's memory, valid only during this call: copy what is kept. */
  private data(chunk: Uint8Array, isLast: boolean): void {
    this.ended = isLast;
    if (this.state === 'flowing') {
      if (this.pass(chunk) && isLast) this.finish();
    } else if (this.state === 'held') {
      this.held.push(Buffer.from(chunk));
    } else if (this.state === 'head') {
      const room = this.limit - this.size;
      const take = Math.min(room, chunk.byteLength);
      this.chunks.push(Buffer.from(chunk.subarray(0, take)));
      this.size += take;
      if (chunk.byteLength > room) {
        this.held.push(Buffer.from(chunk.subarray(room)));
        this.state = 'held';
        if (!isLast) this.ex.res.pause();
        this.settleHead.resolve({ bytes: Buffer.concat(this.chunks, this.size), truncated: true });
      } else if (isLast) {
        this.state = 'done';
        this.settleHead.resolve({ bytes: Buffer.concat(this.chunks, this.size), truncated: false });
      }
    }
  }

  private pass(chunk: Uint8Array): boolean {
    try {
      (this.write as (chunk: Uint8Array) => void)(chunk);
      return true;
    } catch (err) {
      this.fail(err);
      return false;
    }
  }

  private finish(): void {
    this.state = 'done';
    this.settleRest?.resolve();
  }

  private fail(err: unknown): void {
    if (this.state === 'done') return;
    const head = this.state === 'head';
    this.state = 'done';
    if (head) this.settleHead.reject(err instanceof Error ? err : new Error(String(err)));
    this.settleRest?.reject(err);
  }
}
