import { asyncScheduler, type SchedulerLike, type Subscription } from 'rxjs';

/**
 * A stream that gets keepalives. The fields are Keepalives' own, kept on the stream so
 * that listing it allocates nothing.
 */
export interface KeepaliveSlot {
  /** When its next keepalive is due (the scheduler's clock); undefined while not listed. */
  keepaliveDue: number | undefined;
  keepalivePrev: KeepaliveSlot | undefined;
  keepaliveNext: KeepaliveSlot | undefined;
  /** Sends one keepalive. */
  keepalive(): void;
}

/**
 * The keepalives of every open HTTP stream and WebSocket on one timer: a Timeout and its closure per
 * stream were ~0.2 KB of each idle stream's heap. Every stream has the same interval, so
 * the order streams are listed in is the order their keepalives fall due: listing,
 * unlisting and finding the next due are O(1), in a list linked through the streams.
 *
 * As in ntfy (a time.After each turn of a stream's loop), a stream's keepalive is due one
 * interval after it was listed, then one interval after its last one. The timer wakes for
 * the earliest due; those due within `window` after it go out with it, slightly early,
 * so with many streams it wakes at most once per window.
 */
export class Keepalives {
  private head: KeepaliveSlot | undefined;
  private tail: KeepaliveSlot | undefined;
  private timer: Subscription | undefined;
  private readonly intervalMs: number;
  private readonly window: number;

  constructor(
    intervalMs: number,
    private readonly scheduler: SchedulerLike = asyncScheduler,
  ) {
    this.intervalMs = Math.max(1, intervalMs);
    // 5% of the interval, at most a second: 44–45 s between keepalives at ntfy's 45 s default.
    this.window = Math.min(1000, this.intervalMs / 20);
  }

  /** From now on `stream` gets a keepalive every interval, until removed. */
  add(stream: KeepaliveSlot): void {
    if (stream.keepaliveDue !== undefined) return;
    this.append(stream, this.scheduler.now() + this.intervalMs);
    this.timer ??= this.arm();
  }

  remove(stream: KeepaliveSlot): void {
    if (stream.keepaliveDue === undefined) return;
    this.unlink(stream);
    // A timer set for a stream that left finds nothing due and sets itself for the next.
    if (!this.head) {
      this.timer?.unsubscribe();
      this.timer = undefined;
    }
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = this.scheduler.now();
    // Each is listed again at the end, due after the window: the loop sends each once.
    for (let stream = this.head; stream && (stream.keepaliveDue ?? 0) <= now + this.window; stream = this.head) {
      this.unlink(stream);
      this.append(stream, now + this.intervalMs);
      stream.keepalive(); // may remove it (a stream over its buffer limit is dropped)
    }
    this.timer = this.arm();
  };

  private arm(): Subscription | undefined {
    const due = this.head?.keepaliveDue;
    return due === undefined ? undefined : this.scheduler.schedule(this.fire, Math.max(0, due - this.scheduler.now()));
  }

  private append(stream: KeepaliveSlot, due: number): void {
    stream.keepaliveDue = due;
    stream.keepalivePrev = this.tail;
    stream.keepaliveNext = undefined;
    if (this.tail) this.tail.keepaliveNext = stream;
    else this.head = stream;
    this.tail = stream;
  }

  private unlink(stream: KeepaliveSlot): void {
    const { keepalivePrev: prev, keepaliveNext: next } = stream;
    if (prev) prev.keepaliveNext = next;
    else this.head = next;
    if (next) next.keepalivePrev = prev;
    else this.tail = prev;
    stream.keepaliveDue = stream.keepalivePrev = stream.keepaliveNext = undefined;
  }
}
