/** Where failures go that fail no call (a lost cursor, a clean-up after a commit), and warnings (a resized log). */
export interface StoreLog {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** What a database driver's connection pool reports (the metrics); each call must be O(1). */
export interface PoolObserver {
  /** An operation asks the pool for a connection. */
  checkOutStarted(): void;
  /** It got one, or gave up, after `seconds`. */
  checkOutEnded(seconds: number): void;
}
