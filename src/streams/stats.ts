/**
 * The public counters of /v1/stats: messages published ever (persisted in the cache) and
 * the recent rate, averaged over the housekeeping ticks like ntfy's messages_rate.
 */
export class Stats {
  private readonly history: number[] = [];

  constructor(
    private readonly base: number,
    private readonly published: () => number,
    private readonly tickSeconds: number,
    private readonly window = 15,
  ) {}

  get messages(): number {
    return this.base + this.published();
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
