import type { MessageCache } from '../store/message-cache.js';

/**
 * The public counters of /v1/stats: messages published ever, and the recent rate averaged
 * over the housekeeping ticks like ntfy's messages_rate. The total lives in the cache, and
 * every node sharing the cache adds its own publishes to it (`save`), so none overwrites
 * another's. A node shows the total it last read plus what it published since it last
 * saved: another node's publishes appear once that node saved them and this one read the
 * total back (both at each housekeeping tick), and the rate is that of all nodes together.
 */
export class Stats {
  private readonly history: number[] = [];
  /** This node's publishes already added to the stored total. */
  private saved = 0;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly cache: Pick<MessageCache, 'addStats'>,
    private stored: number,
    private readonly published: () => number,
    private readonly tickSeconds: number,
    private readonly window = 15,
  ) {}

  get messages(): number {
    return this.stored + this.published() - this.saved;
  }

  /**
   * Adds this node's publishes since the last save to the stored total and reads the total
   * back. Saves run one after another, so none adds the same publishes twice; a failed one
   * leaves them for the next.
   */
  save(): Promise<void> {
    const run = this.saving.then(async () => {
      const unsaved = this.published() - this.saved;
      this.stored = await this.cache.addStats(unsaved);
      this.saved += unsaved;
    });
    this.saving = run.catch(() => undefined);
    return run;
  }

  /** Called every housekeeping tick. */
  sample(): void {
    this.history.push(this.messages);
    if (this.history.length > this.window) this.history.shift();
  }

  get rate(): number {
    const n = this.history.length;
    if (n < 2) return 0;
    return ((this.history[n - 1] as number) - (this.history[0] as number)) / ((n - 1) * this.tickSeconds);
  }
}
