import type { MessageCache } from '../store/message-cache.js';

/** The cache's figures as last read. */
export interface CacheFigures {
  rows: number;
  bytes: number;
  scheduled: number;
}

/**
 * The cache's figures for the dashboard, read in the background: a frame never waits
 * for the store (a MongoDB count may take milliseconds, or hang with the database), it
 * shows the last read. One read runs at a time; a failed one keeps the previous figures.
 */
export class StoreFigures {
  private figures: CacheFigures = { rows: 0, bytes: 0, scheduled: 0 };
  private reading = false;

  constructor(
    private readonly cache: Pick<MessageCache, 'count' | 'bytes' | 'waiting'>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** The figures of the latest read that finished. */
  get latest(): CacheFigures {
    return this.figures;
  }

  /** Starts a read unless one is under way; resolves when it is done (for tests). */
  refresh(): Promise<void> {
    if (this.reading) return Promise.resolve();
    this.reading = true;
    return Promise.all([this.cache.count(), this.cache.bytes(), this.cache.waiting()])
      .then(([rows, bytes, scheduled]) => {
        this.figures = { rows, bytes, scheduled };
      }, this.onError)
      .finally(() => {
        this.reading = false;
      });
  }
}
