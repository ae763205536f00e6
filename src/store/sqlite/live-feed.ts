import { Subject } from 'rxjs';
import type { Outbound } from '../../model/outbound.js';
import type { FeedBatch, LiveFeed } from '../live-feed.js';

/**
 * The embedded store's live feed. One process owns the SQLite file, so every commit is
 * this process's own: the batch goes to the followers synchronously, inside `committed`,
 * right after the commit and in commit order, as the publisher once handed it to the hub.
 */
export class InProcessFeed implements LiveFeed {
  private readonly subject = new Subject<FeedBatch>();
  readonly batches$ = this.subject.asObservable();

  /**
   * `handed` starts at the newest commit already in the file: those never go live here, and
   * a replay right after a start would otherwise name every message it holds as maybe live.
   */
  constructor(private handed = 0) {}

  get position(): number {
    return this.handed;
  }

  committed(events: readonly Outbound[]): undefined {
    this.subject.next({ events, committedAt: performance.now() });
    // Only now: a subscription attaching meanwhile counts this batch's messages as still to come.
    for (const event of events) if (event.seq !== undefined && event.seq > this.handed) this.handed = event.seq;
    return undefined;
  }

  close(): void {
    this.subject.complete();
  }
}
