import { concatMap, Subject, type Subscription } from 'rxjs';
import { messageJson, type Message } from '../model/message.js';
import { Outbound } from '../model/outbound.js';
import type { MessageCache } from '../store/message-cache.js';
import { bufferTurn } from '../operators/buffer-turn.js';
import type { TopicHub } from './hub.js';

export interface PublishOptions {
  /** Store the message (false: `Cache: no`, live subscribers only). */
  cache: boolean;
  /** Deliver now; false for a scheduled message, which the due sender delivers later. */
  deliver: boolean;
}

interface Pending extends PublishOptions {
  message: Message;
  resolve(event: Outbound): void;
  reject(err: unknown): void;
}

export interface PublisherOptions {
  batchSize: number;
  batchTimeoutMs: number;
  onCommitError(err: unknown, count: number): void;
}

/**
 * The publish pipeline: store, then acknowledge, then deliver (DESIGN.md). Concurrent
 * publishes are batched per event-loop turn into one cache transaction (group commit);
 * only after it commits are the publishers answered and the messages handed to the hub,
 * in commit order. ntfy answers before its batch is written; Tocsin never acknowledges
 * a message it could still lose.
 */
export class Publisher {
  private readonly queue = new Subject<Pending>();
  private readonly pipeline: Subscription;
  private readonly drained: Promise<void>;
  private published = 0;

  constructor(
    private readonly cache: MessageCache,
    private readonly hub: TopicHub,
    options: PublisherOptions,
  ) {
    let markDrained = (): void => undefined;
    this.drained = new Promise((resolve) => (markDrained = resolve));
    this.pipeline = this.queue
      .pipe(
        bufferTurn({ maxSize: options.batchSize, maxWaitMs: options.batchTimeoutMs }),
        concatMap((batch) =>
          this.commit(batch).catch((err: unknown) => {
            options.onCommitError(err, batch.length);
            for (const p of batch) p.reject(err);
          }),
        ),
      )
      .subscribe({ complete: () => markDrained() });
  }

  publish(message: Message, options: PublishOptions): Promise<Outbound> {
    return new Promise((resolve, reject) => this.queue.next({ message, ...options, resolve, reject }));
  }

  /** Messages accepted since start. */
  get count(): number {
    return this.published;
  }

  /** Commits what is queued and stops taking messages. */
  async drain(): Promise<void> {
    this.queue.complete();
    await this.drained;
    this.pipeline.unsubscribe();
  }

  private async commit(batch: Pending[]): Promise<void> {
    const jsons = batch.map((p) => messageJson(p.message));
    const stored = batch.flatMap((p, i) => (p.cache ? [{ message: p.message, json: jsons[i] as string, published: p.deliver }] : []));
    const seqs = stored.length > 0 ? await this.cache.add(stored) : [];
    let next = 0;
    batch.forEach((p, i) => {
      const event = Outbound.of(p.message, jsons[i] as string, p.cache ? seqs[next++] : undefined);
      if (p.deliver) this.hub.deliver(event);
      this.published++;
      p.resolve(event);
    });
  }
}
